package dev.keyright.seats.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Idempotency-Key rules of acquire, against MariaDB. */
class IdempotentAcquireIT extends OnTheServer {


    private record License(String id, String product, String key) {
    }

    private License license(Api api, int seats) {
        String product = uniqueProduct("idem");
        JsonObject created = api.createLicense(product, seats, 60, 5);
        return new License(created.getString("licenseId"), product, created.getString("licenseKey"));
    }

    @Test
    void twentyConcurrentIdenticalRequestsMakeExactlyOneLease() throws Exception {
        Api api = api();
        License license = license(api, 5);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Api.Reply>> futures = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return api.acquire(license.product(), license.key(), "inst-same", Map.of("Idempotency-Key", "k-concurrent"));
                }));
            }
            start.countDown();
            List<Api.Reply> originals = new ArrayList<>();
            List<Api.Reply> replays = new ArrayList<>();
            for (Future<Api.Reply> future : futures) {
                Api.Reply reply = future.get(60, TimeUnit.SECONDS);
                if (reply.status() == 503) { // the contract's only other answer: the wait for the lock ran out
                    assertEquals("https://keyright.dev/problems/service-unavailable", reply.json().getString("type"));
                    assertTrue(reply.header("Retry-After") != null, reply.toString());
                    continue;
                }
                assertEquals(201, reply.status(), "a concurrent duplicate waits and gets the replay, never 409: " + reply);
                ("true".equals(reply.header("Idempotent-Replayed")) ? replays : originals).add(reply);
            }
            assertEquals(1, originals.size(), "one request ran, the others were replays: " + originals);
            assertTrue(replays.size() >= 10, "the duplicates got the replay: " + replays.size());
            for (Api.Reply replay : replays) {
                assertEquals(originals.get(0).body(), replay.body(), "a replay is the stored answer byte for byte");
                assertEquals(originals.get(0).header("Location"), replay.header("Location"));
            }
            assertEquals(1, Tables.leasesOf(license.id()));
            assertEquals(1, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRetryAfterALostResponseGetsTheSameLeaseByteForByte() {
        Api api = api();
        License license = license(api, 2);
        Api.Reply lost = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-lost"));
        // The client never saw `lost`: it timed out. It retries with the same key.
        Api.Reply retry = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-lost"));
        assertEquals(lost.status(), retry.status());
        assertEquals(201, retry.status());
        assertEquals(lost.body(), retry.body());
        assertEquals(lost.header("Location"), retry.header("Location"));
        assertEquals("true", retry.header("Idempotent-Replayed"));
        assertNull(lost.header("Idempotent-Replayed"));
        assertEquals(1, Tables.leasesOf(license.id()));
    }

    @Test
    void aRetryIsReplayedAfterTheLicenseFilledUpAgain() {
        Api api = api();
        License license = license(api, 1);
        Api.Reply lost = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-refilled"));
        assertEquals(201, lost.status());
        assertEquals(204, api.release(license.key(), lost.json().getString("leaseId")).status());
        assertEquals(201, api.acquire(license.product(), license.key(), "inst-b").status());

        // Full now: a new request of inst-a would be refused, but this is the retry of one that was answered.
        Api.Reply retry = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-refilled"));
        assertEquals(201, retry.status(), "the stored answer, not a 409: " + retry);
        assertEquals(lost.body(), retry.body());
        assertEquals("true", retry.header("Idempotent-Replayed"));
        assertEquals(1, Tables.leasesOf(license.id()));
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'DENY'",
                license.id()), "a replay is no denial");
    }

    @Test
    void theQuotedAndTheBareFormAreTheSameKey() {
        Api api = api();
        License license = license(api, 2);
        Api.Reply bare = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-form"));
        Api.Reply quoted = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "\"k-form\""));
        assertEquals(bare.body(), quoted.body());
        assertEquals("true", quoted.header("Idempotent-Replayed"));
    }

    @Test
    void theSameRequestFormattedDifferentlyIsTheSameRequest() {
        Api api = api();
        License license = license(api, 2);
        String compact = "{\"product\":\"" + license.product() + "\",\"licenseKey\":\"" + license.key() + "\",\"clientInstanceId\":\"inst-f\"}";
        String spaced = "{ \"clientInstanceId\" : \"inst-f\",\n \"licenseKey\": \"" + license.key() + "\", \"product\": \"" + license.product() + "\" }";
        Api.Reply first = api.send("POST", "/v1/seats/acquire", compact, Map.of("Content-Type", "application/json", "Idempotency-Key", "k-fmt"));
        Api.Reply second = api.send("POST", "/v1/seats/acquire", spaced, Map.of("Content-Type", "application/json", "Idempotency-Key", "k-fmt"));
        assertEquals(201, first.status());
        assertEquals(first.body(), second.body());
        assertEquals("true", second.header("Idempotent-Replayed"));
    }

    @Test
    void theSameKeyWithAnotherRequestIs422AndChangesNothing() {
        Api api = api();
        License license = license(api, 3);
        assertEquals(201, api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-reuse")).status());
        String before = Tables.snapshot();
        Api.Reply reused = api.acquire(license.product(), license.key(), "inst-b", Map.of("Idempotency-Key", "k-reuse"));
        assertEquals(422, reused.status());
        assertEquals("application/problem+json", reused.contentType());
        assertEquals("https://keyright.dev/problems/idempotency-key-reused", reused.json().getString("type"));
        assertEquals(before, Tables.snapshot());
    }

    @Test
    void aFailureStoresNothingAndTheRetryRunsAfresh() {
        Api api = api();
        License license = license(api, 1);
        String holder = api.acquire(license.product(), license.key(), "inst-holder").json().getString("leaseId");
        Api.Reply full = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-fail"));
        assertEquals(409, full.status());
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id()));

        assertEquals(204, api.release(license.key(), holder).status());
        Api.Reply retry = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-fail"));
        assertEquals(201, retry.status(), "processed afresh, not a replayed 409: " + retry);
        assertNull(retry.header("Idempotent-Replayed"));
    }

    @Test
    void keysAreScopedPerLicense() {
        Api api = api();
        License a = license(api, 1);
        License b = license(api, 1);
        Api.Reply onA = api.acquire(a.product(), a.key(), "inst-a", Map.of("Idempotency-Key", "k-shared"));
        Api.Reply onB = api.acquire(b.product(), b.key(), "inst-a", Map.of("Idempotency-Key", "k-shared"));
        assertEquals(201, onA.status());
        assertEquals(201, onB.status(), "the same key under another license is another request: " + onB);
        assertNull(onB.header("Idempotent-Replayed"));
        assertNotEquals(onA.json().getString("leaseId"), onB.json().getString("leaseId"));
    }

    @Test
    void overlongKeysAndControlCharactersAre400() throws Exception {
        Api api = api();
        License license = license(api, 1);
        String before = Tables.snapshot();
        Api.Reply overlong = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k".repeat(256)));
        assertEquals(400, overlong.status());
        assertEquals("https://keyright.dev/problems/invalid-request", overlong.json().getString("type"));
        assertEquals(201, api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k".repeat(255))).status());
        assertEquals(204, api.release(license.key(), Tables.leaseIdOf(license.id())).status());

        String body = "{\"product\":\"" + license.product() + "\",\"licenseKey\":\"" + license.key() + "\",\"clientInstanceId\":\"inst-c\"}";
        String tab = rawPost(body, "k\tcontrol");
        assertTrue(tab.startsWith("HTTP/1.1 400"), tab);
        assertTrue(tab.contains("application/problem+json") && tab.contains("Idempotency-Key"), tab);
        // Other control characters never reach the application: the HTTP layer refuses them with a bare 400.
        String soh = rawPost(body, "k\u0001control");
        assertTrue(soh.startsWith("HTTP/1.1 400"), soh);
        assertEquals(0, Tables.leasesOf(license.id()));
        assertNotEquals(before, Tables.snapshot());
    }

    @Test
    void recordsArePurgedAfter24HoursAndTheKeyIsThenNew() {
        Api api = api();
        License license = license(api, 2);
        Api.Reply first = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-purge"));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id()));
        api.advanceClock(Duration.ofHours(24).plusSeconds(1));
        api.reap();
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id()));
        Api.Reply later = api.acquire(license.product(), license.key(), "inst-a", Map.of("Idempotency-Key", "k-purge"));
        assertEquals(201, later.status());
        assertNull(later.header("Idempotent-Replayed"));
        assertNotEquals(first.json().getString("leaseId"), later.json().getString("leaseId"));
    }

    /** java.net.http refuses control characters in headers; a raw socket sends what an attacker would. */
    private String rawPost(String body, String idempotencyKey) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String path = base.getPath().endsWith("/") ? base.getPath() : base.getPath() + "/";
            out.write(("POST " + path + "v1/seats/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: " + idempotencyKey + "\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The largest answer the request limits allow: 256 + 256 three-byte characters of metadata, a 128-character install id. */
    @Test
    void theLargestAllowedAcquireIsStoredAndReplayedByteForByte() {
        Api api = api();
        License license = license(api, 2);
        String dash = "\u2013".repeat(256);
        String install = "i".repeat(128);
        String body = jakarta.json.Json.createObjectBuilder().add("product", license.product()).add("licenseKey", license.key())
                .add("clientInstanceId", install)
                .add("metadata", jakarta.json.Json.createObjectBuilder().add("user", dash).add("host", dash)).build().toString();
        Map<String, String> headers = Map.of("Content-Type", "application/json", "Idempotency-Key", "largest");
        Api.Reply first = api.send("POST", "/v1/seats/acquire", body, headers);
        assertEquals(201, first.status(), first.toString());
        Api.Reply replay = api.send("POST", "/v1/seats/acquire", body, headers);
        assertEquals(201, replay.status(), replay.toString());
        assertEquals("true", replay.header("Idempotent-Replayed"));
        assertEquals(first.body(), replay.body(), "byte for byte");
        assertEquals(1, Tables.leasesOf(license.id()));
    }

    @Test
    void oneInstallWithEverNewKeysKeepsOnlyItsNewestRecordsAndTheyStillReplay() {
        Api api = api();
        License license = license(api, 3);
        List<Api.Reply> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            answers.add(api.acquire(license.product(), license.key(), "inst-looping", Map.of("Idempotency-Key", "loop-" + i)));
            assertTrue(answers.get(i).status() == 201 || answers.get(i).status() == 200, answers.get(i).toString());
        }
        assertEquals(8, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id()),
                "an install keeps its newest KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL (8) records");
        for (int i = 32; i < 40; i++) {
            Api.Reply replay = api.acquire(license.product(), license.key(), "inst-looping", Map.of("Idempotency-Key", "loop-" + i));
            assertEquals("true", replay.header("Idempotent-Replayed"), "key " + i + " is kept and replays");
            assertEquals(answers.get(i).body(), replay.body(), "key " + i);
        }
        Api.Reply dropped = api.acquire(license.product(), license.key(), "inst-looping", Map.of("Idempotency-Key", "loop-0"));
        assertEquals(200, dropped.status(), "a dropped key is processed afresh: the install's own seat, renewed");
        assertNull(dropped.header("Idempotent-Replayed"));
        assertEquals(1, Tables.leasesOf(license.id()), "and never a second seat");
        Api.Reply other = api.acquire(license.product(), license.key(), "inst-other", Map.of("Idempotency-Key", "other-1"));
        assertEquals(201, other.status());
        assertEquals("true", api.acquire(license.product(), license.key(), "inst-other", Map.of("Idempotency-Key", "other-1"))
                .header("Idempotent-Replayed"), "another install's record is not pushed out by the looping one");
    }

    @Test
    void aLicenseKeepsAtMostItsConfiguredNumberOfRecords() {
        Api api = api();
        License license = license(api, 300);
        int bound = 200; // KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE in the test servers' environment (pom.xml)
        int period = 20; // checked at the license's first store on this node, then at every tenth of the bound
        int stores = bound + period + 1; // the last of them is a check: #1, #21, ..., #221
        for (int i = 0; i < stores; i++) {
            storeOne(api, license, i);
        }
        assertEquals(bound, recordsOf(license), "a check drops everything beyond the bound at once");
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ? AND idem_key = 'many-20'", license.id()),
                "the oldest went first");
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ? AND idem_key = 'many-21'", license.id()));
        for (int i = stores; i < stores + period - 1; i++) {
            storeOne(api, license, i);
        }
        assertEquals(bound + period - 1, recordsOf(license), "between two checks a license holds at most period - 1 more");
        storeOne(api, license, stores + period - 1);
        assertEquals(bound, recordsOf(license), "and the next check takes it back to the bound");
        int last = stores + period - 1;
        Api.Reply newest = api.acquire(license.product(), license.key(), "inst-" + last, Map.of("Idempotency-Key", "many-" + last));
        assertEquals("true", newest.header("Idempotent-Replayed"));
        assertEquals(last + 1, Tables.leasesOf(license.id()));
    }

    private static void storeOne(Api api, License license, int i) {
        Api.Reply reply = api.acquire(license.product(), license.key(), "inst-" + i, Map.of("Idempotency-Key", "many-" + i));
        assertEquals(201, reply.status(), reply.toString());
    }

    private static long recordsOf(License license) {
        return Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.id());
    }
}
