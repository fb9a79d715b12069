package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The fair queue of API-v2 "Waiting for a seat" on one node: {@code Prefer: wait} holds an acquire until a
 * seat is freed for it, first come first served; a freed seat reaches the head of the line within a second;
 * a hold that runs out keeps the install's place for the queue keep (10 s), and no longer; a newcomer never
 * takes a seat that belongs to the line.
 */
class QueueIT extends OnTheServer {

    private static final Map<String, String> WAIT_60 = Map.of("Prefer", "wait=60");

    @Test
    void fiveWaitersGetTheSeatInTheOrderTheyCameAsItIsReleasedFiveTimes() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        JsonObject license = api.createLicense(product, 1, 60, 2);
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "holder").json().getString("leaseId");
        List<CompletableFuture<Api.Reply>> waiters = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            waiters.add(api.acquireLater(product, key, "w" + i, WAIT_60));
            int queued = i;
            awaitTrue(() -> api.pool(product, key).json().getInt("queued") == queued, "waiter " + i + " joined the queue");
        }

        JsonArray waiting = api.pool(product, key).json().getJsonArray("waiting");
        for (int i = 0; i < 5; i++) {
            JsonObject entry = waiting.getJsonObject(i);
            assertEquals("user-w" + (i + 1), entry.getString("user"), "the line is in arrival order");
            assertEquals(i + 1, entry.getInt("position"));
            assertFalse(entry.containsKey("clientInstanceId"), "the client view names no install: " + entry);
        }
        JsonObject adminPool = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null)
                .json().getJsonObject("pool");
        assertEquals(5, adminPool.getInt("queued"));
        assertEquals("w1", adminPool.getJsonArray("waiting").getJsonObject(0).getString("clientInstanceId"));

        Api.Reply newcomer = api.acquire(product, key, "newcomer");
        assertEquals(409, newcomer.status(), "a newcomer without Prefer is refused while others wait: " + newcomer);

        List<Long> handOvers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long released = System.nanoTime();
            assertEquals(204, api.release(key, leaseId).status());
            Api.Reply granted = waiters.get(i).get(10, TimeUnit.SECONDS);
            long handOverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            handOvers.add(handOverMillis);
            assertEquals(201, granted.status(), "waiter " + (i + 1) + " gets the seat: " + granted);
            assertEquals("wait=60", granted.header("Preference-Applied"));
            assertTrue(granted.json().getJsonNumber("waitedMillis").longValue() >= 0, granted.body());
            assertTrue(handOverMillis < 1_000, "released to granted within 1 s on the same node, was " + handOverMillis + " ms");
            for (int later = i + 1; later < 5; later++) {
                assertFalse(waiters.get(later).isDone(), "waiter " + (later + 1) + " is still behind waiter " + (i + 1));
            }
            leaseId = granted.json().getString("leaseId");
            assertTrue(api.serverKnowsLease(leaseId), "a seat handed over is remembered like any granted one");
        }
        System.out.println("[QueueIT] release-to-grant hand-over on one node, ms: " + handOvers);
        assertEquals(0, api.pool(product, key).json().getInt("queued"));
    }

    @Test
    void aSeatFreedByExpiryGoesToTheHeadOfTheLineWithinASecond() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        String key = api.createLicense(product, 1, 30, 2).getString("licenseKey");
        assertEquals(201, api.acquire(product, key, "crashed").status());
        CompletableFuture<Api.Reply> waiter = api.acquireLater(product, key, "waiter", WAIT_60);
        awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 1, "the waiter joined the queue");

        long moved = System.nanoTime();
        api.advanceClock(Duration.ofSeconds(33)); // past expiresAt + skew of the crashed install's lease
        Api.Reply granted = waiter.get(10, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - moved);
        assertEquals(201, granted.status(), granted.toString());
        assertTrue(millis < 1_000, "expired to granted within 1 s, was " + millis + " ms");
    }

    @Test
    void aHoldThatRunsOutKeepsThePlaceForTheQueueKeepAndNoLonger() {
        Api api = api();
        String product = uniqueProduct("queue");
        JsonObject license = api.createLicense(product, 1, 60, 2);
        String key = license.getString("licenseKey");
        String id = license.getString("licenseId");
        String holder = api.acquire(product, key, "holder").json().getString("leaseId");
        assertFalse(Tables.mayHaveWaiters(id), "nobody waits yet: checkouts do not read queue_entry");

        Api.Reply first = api.acquire(product, key, "first", Map.of("Prefer", "wait=1"));
        assertEquals(409, first.status(), first.toString());
        assertTrue(Tables.mayHaveWaiters(id), "the checkout that queued an install set the license's flag");
        assertEquals("0", first.header("Retry-After"));
        assertEquals(1, first.json().getInt("queuePosition"));
        assertTrue(first.json().getString("type").endsWith("/seats-exhausted"), first.body());
        Api.Reply second = api.acquire(product, key, "second", Map.of("Prefer", "wait=1"));
        assertEquals(2, second.json().getInt("queuePosition"), second.toString());

        assertEquals(204, api.release(key, holder).status());
        Api.Reply newcomer = api.acquire(product, key, "newcomer");
        assertEquals(409, newcomer.status(), "the free seat belongs to the head of the line: " + newcomer);
        assertEquals(0, newcomer.json().getInt("seatsInUse"), newcomer.body());
        assertEquals(409, api.acquire(product, key, "second").status(), "the second in line does not pass the first");
        Api.Reply head = api.acquire(product, key, "first");
        assertEquals(201, head.status(), "the head asks again within the keep and gets its seat: " + head);

        assertEquals(204, api.release(key, head.json().getString("leaseId")).status());
        assertEquals(409, api.acquire(product, key, "newcomer").status(), "the second keeps its place for 10 s");
        api.advanceClock(Duration.ofSeconds(11));
        Api.Reply newcomer2 = api.acquire(product, key, "newcomer");
        assertEquals(201, newcomer2.status(), "an install not seen for longer than the keep has left the line and blocks nobody");
        assertEquals(0, api.pool(product, key).json().getInt("queued"));
        assertFalse(Tables.mayHaveWaiters(id), "the checkout that found nobody waiting cleared the flag");

        Api.Reply afterClear = api.acquire(product, key, "late", Map.of("Prefer", "wait=1"));
        assertEquals(1, afterClear.json().getInt("queuePosition"), "with the flag clear an install still queues: " + afterClear);
        assertTrue(Tables.mayHaveWaiters(id));
        assertEquals(204, api.release(key, newcomer2.json().getString("leaseId")).status());
        assertEquals(409, api.acquire(product, key, "another").status(), "and the line is read again: the seat is the waiter's");
    }

    @Test
    void aWaiterWhoseConnectionDiesLeavesTheLineAQueueKeepAfterItsHoldEnds() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        String key = api.createLicense(product, 1, 60, 2).getString("licenseKey");
        String holder = api.acquire(product, key, "holder").json().getString("leaseId");
        String body = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"killed\"}";
        java.net.URL url = new java.net.URL(base, "v1/seats/acquire");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", url.getPort())) {
            byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            socket.getOutputStream().write(("POST " + url.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nPrefer: wait=2\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 1, "the waiter joined the queue");
        } // the client dies: its connection is closed with the request still held
        awaitTrue(() -> api.heldRequests() == 0, "its 2 s hold ended (no container reports the closed connection)");
        assertEquals(1, api.pool(product, key).json().getInt("queued"), "its place is kept for the queue keep");
        api.advanceClock(Duration.ofSeconds(11));
        assertEquals(0, api.pool(product, key).json().getInt("queued"), "not seen for longer than the keep: gone");
        assertEquals(204, api.release(key, holder).status());
        Api.Reply next = api.acquire(product, key, "next");
        assertEquals(201, next.status(), "the dead waiter blocks nobody: " + next);
    }

    @Test
    void leavingTheQueueEndsTheHeldRequestAtOnce() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        String key = api.createLicense(product, 1, 60, 2).getString("licenseKey");
        assertEquals(201, api.acquire(product, key, "holder").status());
        CompletableFuture<Api.Reply> waiter = api.acquireLater(product, key, "quitter", WAIT_60);
        awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 1, "the waiter joined the queue");

        assertEquals(204, api.leaveQueue(key, "quitter").status());
        Api.Reply ended = waiter.get(5, TimeUnit.SECONDS);
        assertEquals(409, ended.status(), ended.toString());
        assertFalse(ended.json().containsKey("queuePosition"), "no place is kept: " + ended.body());
        assertEquals(0, api.pool(product, key).json().getInt("queued"));
        assertEquals(204, api.leaveQueue(key, "quitter").status(), "leaving twice is no error");

        Api.Reply badId = api.leaveQueue(key, "no%20spaces");
        assertEquals(400, badId.status(), badId.toString());
        assertTrue(badId.contentType().startsWith("application/problem+json"), badId.toString());
        assertEquals(401, api.send("DELETE", "/v1/seats/queue/quitter", null, Map.of()).status(), "the license key is required");
    }

    @Test
    void withoutPreferRetryAfterIsTheTimeUntilTheFirstSeatCanFreeUpByExpiry() {
        Api api = api();
        String product = uniqueProduct("queue");
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String key = license.getString("licenseKey");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        try {
            JsonObject lease = api.acquire(product, key, "holder").json();
            int renewAfter = lease.getInt("renewAfterSeconds");
            long lastLive = java.time.Instant.parse(lease.getString("expiresAt")).toEpochMilli() + 5_000;
            Api.Reply refused = api.acquire(product, key, "other");
            assertEquals(String.valueOf(renewAfter), refused.header("Retry-After"),
                    "65 s until the seat can free up by expiry, capped at the renew interval: " + refused);
            api.freezeClock(lastLive - 15_000);
            assertEquals("15", api.acquire(product, key, "other").header("Retry-After"), "expiresAt + skew is 15 s away");
            api.freezeClock(lastLive - 14_001);
            assertEquals("15", api.acquire(product, key, "other").header("Retry-After"), "14.001 s is rounded up");
            api.freezeClock(lastLive - 500);
            assertEquals("1", api.acquire(product, key, "other").header("Retry-After"), "at least 1 s");
        } finally {
            api.thawClock();
        }
    }

    @Test
    void aSeatHandedToAWaiterIsReplayedUnderItsIdempotencyKey() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        String key = api.createLicense(product, 1, 60, 2).getString("licenseKey");
        String holder = api.acquire(product, key, "holder").json().getString("leaseId");
        Map<String, String> headers = Map.of("Prefer", "wait=60", "Idempotency-Key", "wait-1");
        CompletableFuture<Api.Reply> waiter = api.acquireLater(product, key, "waiter", headers);
        awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 1, "the waiter joined the queue");
        api.release(key, holder);
        Api.Reply granted = waiter.get(10, TimeUnit.SECONDS);
        assertEquals(201, granted.status(), granted.toString());

        Api.Reply replay = api.acquire(product, key, "waiter", headers);
        assertEquals(201, replay.status(), replay.toString());
        assertEquals("true", replay.header("Idempotent-Replayed"));
        assertEquals(granted.body(), replay.body(), "the stored answer is the one the waiter got");
    }

    @Test
    void anInstallServedByTheQueueUnderEverNewKeysKeepsOnlyItsNewestStoredAnswers() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        JsonObject license = api.createLicense(product, 1, 60, 2);
        String key = license.getString("licenseKey");
        for (int round = 0; round < 10; round++) {
            String other = api.acquire(product, key, "other").json().getString("leaseId");
            CompletableFuture<Api.Reply> waiter = api.acquireLater(product, key, "waiter",
                    Map.of("Prefer", "wait=60", "Idempotency-Key", "round-" + round));
            awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 1, "the waiter joined the queue, round " + round);
            api.release(key, other);
            Api.Reply granted = waiter.get(10, TimeUnit.SECONDS);
            assertEquals(201, granted.status(), "round " + round + ": " + granted);
            assertEquals(204, api.release(key, granted.json().getString("leaseId")).status());
        }
        assertEquals(8, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.getString("licenseId")),
                "an install keeps its newest KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL (8) answers, handed over by the queue too");
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ? AND idem_key IN ('round-0', 'round-1')",
                license.getString("licenseId")), "the oldest went first");
    }

    @Test
    void threeHundredHeldRequestsHoldNoThreadsAndHoldersKeepRenewing() throws Exception {
        Api api = api();
        String product = uniqueProduct("queue");
        String key = api.createLicense(product, 5, 60, 2).getString("licenseKey");
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            holders.add(api.acquire(product, key, "holder-" + i).json().getString("leaseId"));
        }
        api.renew(key, holders.get(0));
        int before = api.serverThreadsServing();
        List<CompletableFuture<Api.Reply>> waiters = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            waiters.add(api.acquireLater(product, key, "waiter-" + i, WAIT_60));
        }
        // 300 checkouts pass the license lock one by one before each is held: seconds on a busy 2-core machine
        awaitTrue(() -> api.pool(product, key).json().getInt("queued") == 300, "300 requests are held", 60);
        int during = api.serverThreadsServing();
        long[] renewMicros = new long[200];
        for (int i = 0; i < renewMicros.length; i++) {
            long sent = System.nanoTime();
            assertEquals(200, api.renew(key, holders.get(i % holders.size())).status());
            renewMicros[i] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent);
        }
        Arrays.sort(renewMicros);
        long p50 = renewMicros[renewMicros.length / 2];
        long p99 = renewMicros[renewMicros.length * 99 / 100];
        System.out.printf("[QueueIT] 300 held requests: server threads serving requests %d before, %d during "
                + "(%d threads in the JVM); renew p50 %.1f ms, p99 %.1f ms%n", before, during, api.serverThreads(), p50 / 1000.0, p99 / 1000.0);
        assertTrue(during - before < 10, "300 held requests must not hold 300 threads: " + before + " -> " + during);
        assertTrue(p99 < 1_000_000, "renewals stay fast while 300 requests wait, p99 " + p99 + " µs");
        assertTrue(waiters.stream().noneMatch(CompletableFuture::isDone), "every held request is still held");

        for (int i = 0; i < 300; i++) {
            assertEquals(204, api.leaveQueue(key, "waiter-" + i).status());
        }
        for (CompletableFuture<Api.Reply> waiter : waiters) {
            assertEquals(409, waiter.get(10, TimeUnit.SECONDS).status());
        }
    }

    /** Polls for a state the server reaches on its own, for at most 10 s. */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        awaitTrue(condition, what, 10);
    }

    /** Polls for a state the server reaches on its own, for at most {@code seconds}. */
    private static void awaitTrue(BooleanSupplier condition, String what, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
