package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.RawHttp;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the checkout does when the database pushes back, proven with the real thing where it can be made on
 * purpose: an InnoDB deadlock the checkout loses and retries into a grant (and one a release loses, retried into a
 * release); the license and lease rows locked while they are read; an install whose lease expired but was not
 * reaped yet; and the shapes of the answers to a server fault
 * and to a database that went away.
 */
class CheckoutFaultsIT extends OnTheServer {

    /**
     * A transaction that holds an uncommitted idempotency record under the same key (so the checkout's insert of
     * its record waits on it; that table has no foreign key, so nothing locks the license row for it) and then
     * asks for the license row the checkout holds: a real deadlock. InnoDB rolls back the smaller
     * transaction, the checkout (ours inserted 200 rows first), which the bounded retry runs again: a 201. Without
     * the retry the answer would be a 503.
     */
    @Test
    void aRealDeadlockLostByTheCheckoutIsRetriedIntoAGrant() throws Exception {
        Api api = api();
        String product = uniqueProduct("deadlock");
        JsonObject license = api.createLicense(product, 3, 120, 5);
        String licenseId = license.getString("licenseId");
        JsonObject ballast = api.createLicense(uniqueProduct("ballast"), 1, 120, 5);
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            weigh(other, ballast.getString("licenseId"));
            try (PreparedStatement record = other.prepareStatement("INSERT INTO idempotency_record (id, license_id, idem_key,"
                    + " fingerprint, status, body, created_at, client_instance_id) VALUES (?, ?, 'dead-key', 'x', 201, '{}', 0, 'deadlocked')")) {
                record.setString(1, sha256(licenseId + "\n" + "dead-key"));
                record.setString(2, licenseId);
                record.executeUpdate();
            }
            CompletableFuture<Api.Reply> checkout = CompletableFuture.supplyAsync(() -> api.acquire(product,
                    license.getString("licenseKey"), "deadlocked", Map.of("Idempotency-Key", "dead-key")));
            MariaDb.awaitStatement("INSERT INTO idempotency_record%", () -> "the checkout's insert waits on the uncommitted record;"
                    + " the checkout: " + (checkout.isDone() ? checkout.join().toString() : "still running"));
            lockRow(other, "license", licenseId); // returns: InnoDB chose the checkout as the victim (else this throws)
            assertTrue(latestDeadlockMentions("idempotency_record"), "InnoDB reported the deadlock");
            other.rollback();
            Api.Reply reply = checkout.get(30, TimeUnit.SECONDS);
            assertEquals(201, reply.status(), "the retried checkout granted the seat: " + reply);
            assertEquals(null, reply.header("Idempotent-Replayed"), "run afresh: the other transaction's record never committed");
        }
        assertEquals(1, Tables.leasesOf(licenseId));
    }

    /**
     * The same for a release: a transaction that holds the lease's grant record (by its key, so the release's update
     * of it waits) and then asks for the lease row the release holds. InnoDB rolls back the release (the other
     * transaction changed 200 rows first), which the bounded retry runs again once the other one is gone: 204, the
     * seat free, the release recorded once and the grant ended. Without the retry the answer would be a 503 and the
     * seat still held (found in a benchmark run, docs/BENCHMARK.md round 19).
     */
    @Test
    void aRealDeadlockLostByTheReleaseIsRetriedIntoARelease() throws Exception {
        Api api = api();
        HeldSeat seat = heldSeat(api, "release-deadlock", "releasing");
        String key = seat.key();
        String leaseId = seat.leaseId();
        JsonObject ballast = api.createLicense(uniqueProduct("ballast"), 1, 120, 5);
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            weigh(other, ballast.getString("licenseId"));
            String grant = grantEventOf(other, leaseId);
            lockRow(other, "lease_event", grant);
            CompletableFuture<Api.Reply> release = CompletableFuture.supplyAsync(() -> api.release(key, leaseId));
            MariaDb.awaitStatement("UPDATE lease_event%", () -> "the release's update of the grant waits on it;"
                    + " the release: " + (release.isDone() ? release.join().toString() : "still running"));
            lockRow(other, "lease", leaseId); // returns: InnoDB chose the release as the victim (else this throws)
            assertTrue(latestDeadlockMentions("lease_event"), "InnoDB reported the deadlock");
            other.rollback();
            Api.Reply reply = release.get(30, TimeUnit.SECONDS);
            assertEquals(204, reply.status(), "the retried release gave the seat back: " + reply);
        }
        assertEquals(0, Tables.leasesOf(seat.licenseId()));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind = 'RELEASE'", leaseId));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind = 'GRANT'"
                + " AND ended_at IS NOT NULL", leaseId));
        assertEquals(201, api.acquire(seat.product(), key, "releasing").status(), "the install gets a new seat");
    }

    /**
     * What the same install got while a checkout waited for the license lock (here committed by the transaction that
     * held it, as a retry of this request sent to another node would) is what the checkout reads once it has the lock:
     * that lease is returned, 200, one seat.
     */
    @Test
    void aSeatTheSameInstallGotWhileTheCheckoutWaitedForTheLockIsReturnedNotDoubled() throws Exception {
        Api api = api();
        String product = uniqueProduct("raced-install");
        JsonObject license = api.createLicense(product, 3, 120, 5);
        String licenseId = license.getString("licenseId");
        String racedLease = "lease_" + java.util.UUID.randomUUID().toString().replace("-", "");
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            lockRow(other, "license", licenseId);
            CompletableFuture<Api.Reply> checkout = CompletableFuture.supplyAsync(() -> api.acquire(product,
                    license.getString("licenseKey"), "raced"));
            awaitCheckoutAtTheLock(checkout);
            insertLiveLease(other, racedLease, licenseId, "raced");
            other.commit();
            Api.Reply reply = checkout.get(30, TimeUnit.SECONDS);
            assertEquals(200, reply.status(), "the install's lease, returned: " + reply);
            assertEquals(racedLease, reply.json().getString("leaseId"));
        }
        assertEquals(1, Tables.leasesOf(licenseId), "one install, one seat");
    }

    /**
     * An answer stored under a checkout's Idempotency-Key while it waited for the license lock (by the same request
     * sent to another node) is found once the checkout has the lock, and replayed byte for byte: no second seat. Here
     * the other node's answer is a copy of an earlier one for the same request body, so that its fingerprint is this
     * request's.
     */
    @Test
    void anAnswerStoredUnderTheSameKeyWhileTheCheckoutWaitedForTheLockIsReplayedNotDoubled() throws Exception {
        Api api = api();
        String product = uniqueProduct("raced-key");
        JsonObject license = api.createLicense(product, 3, 120, 5);
        String licenseId = license.getString("licenseId");
        String key = license.getString("licenseKey");
        Api.Reply earlier = api.acquire(product, key, "raced", Map.of("Idempotency-Key", "earlier-key"));
        assertEquals(201, earlier.status(), earlier.toString());
        assertEquals(204, api.release(key, earlier.json().getString("leaseId")).status());
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            lockRow(other, "license", licenseId);
            CompletableFuture<Api.Reply> checkout = CompletableFuture.supplyAsync(() -> api.acquire(product, key, "raced",
                    Map.of("Idempotency-Key", "raced-key")));
            awaitCheckoutAtTheLock(checkout);
            insertLiveLease(other, "lease_" + java.util.UUID.randomUUID().toString().replace("-", ""), licenseId, "raced");
            try (PreparedStatement answer = other.prepareStatement("INSERT INTO idempotency_record (id, license_id, idem_key,"
                    + " fingerprint, status, location, body, created_at, client_instance_id) SELECT ?, license_id, 'raced-key',"
                    + " fingerprint, status, location, body, created_at, client_instance_id FROM idempotency_record"
                    + " WHERE id = ?")) {
                answer.setString(1, sha256(licenseId + "\n" + "raced-key"));
                answer.setString(2, sha256(licenseId + "\n" + "earlier-key"));
                assertEquals(1, answer.executeUpdate());
            }
            other.commit();
            Api.Reply reply = checkout.get(30, TimeUnit.SECONDS);
            assertEquals(201, reply.status(), reply.toString());
            assertEquals("true", reply.header("Idempotent-Replayed"), "the answer stored under the key, replayed");
            assertEquals(earlier.body(), reply.body());
        }
        assertEquals(1, Tables.leasesOf(licenseId), "only the seat the other request was granted");
    }

    /**
     * A release reads its lease under the lease row's lock (RowLocks): while another transaction holds that row, here
     * one that ends the lease as the reaper does (its row deleted, an EXPIRE recorded), the release waits, and once
     * that commits it finds no lease to end: 404, and the lease has the one ending. A release that read the lease
     * without the lock would record a second ending and answer 204.
     */
    @Test
    void aReleaseWaitsForTheLeaseRowAndDoesNotEndALeaseTheReaperEnded() throws Exception {
        Api api = api();
        HeldSeat seat = heldSeat(api, "raced-release", "raced");
        String leaseId = seat.leaseId();
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            lockRow(other, "lease", leaseId);
            CompletableFuture<Api.Reply> release = CompletableFuture.supplyAsync(() -> api.release(seat.key(), leaseId));
            MariaDb.awaitStatement("SELECT % FROM lease WHERE % FOR UPDATE%", () -> "the release waits for the lease row;"
                    + " the release: " + (release.isDone() ? release.join().toString() : "still running"));
            try (PreparedStatement reap = other.prepareStatement("DELETE FROM lease WHERE id = ?");
                 PreparedStatement expiry = other.prepareStatement("INSERT INTO lease_event (id, license_id, lease_id,"
                         + " kind, at_millis, client_instance_id) VALUES (?, ?, ?, 'EXPIRE', ?, 'raced')")) {
                reap.setString(1, leaseId);
                assertEquals(1, reap.executeUpdate());
                expiry.setString(1, "ev_" + java.util.UUID.randomUUID().toString().replace("-", ""));
                expiry.setString(2, seat.licenseId());
                expiry.setString(3, leaseId);
                expiry.setLong(4, System.currentTimeMillis());
                assertEquals(1, expiry.executeUpdate());
            }
            other.commit();
            Api.Reply reply = release.get(30, TimeUnit.SECONDS);
            assertEquals(404, reply.status(), "nothing left to release: " + reply);
        }
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind IN"
                + " ('RELEASE', 'RETURN', 'EXPIRE', 'REVOKE')", leaseId), "one ending: the reaper's");
    }

    /**
     * A burst of acquires on one license waits for its turns there without taking the connection pool from the other
     * licenses. The license row is held elsewhere, so a burst of more acquires than the pool has connections (64,
     * server-config/mariadb.asadmin) piles up behind the checkout that waits for it; meanwhile a renew of another
     * license is answered at once. When every acquire waiting for its turn took its connection first, the renew
     * waited for the first connection given back: the lock timeout (3 s here) or the pool's 5 s. Once the row is let
     * go, the burst ends in one seat and refusals (409, or 503 for those whose turn did not come in time).
     */
    @Test
    void aBurstOnOneLicenseLeavesTheConnectionsToTheOtherLicenses() throws Exception {
        Api api = api();
        HeldSeat bystander = heldSeat(api, "bystander", "bystander");
        String product = uniqueProduct("burst");
        JsonObject license = api.createLicense(product, 1, 120, 5);
        String licenseId = license.getString("licenseId");
        String key = license.getString("licenseKey");
        int burst = 80;
        int before = api.serverThreadsServing();
        List<CompletableFuture<Api.Reply>> acquires = new ArrayList<>();
        long renewMillis;
        Api.Reply renewed;
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            lockRow(other, "license", licenseId);
            for (int i = 0; i < burst; i++) {
                acquires.add(api.acquireLater(product, key, "burst-" + i, Map.of()));
            }
            MariaDb.awaitStatement("SELECT % FROM license WHERE % FOR UPDATE%", () -> "a checkout of the burst waits for the license row");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int serving;
            while ((serving = api.serverThreadsServing()) < before + burst && System.nanoTime() < until) {
                TimeUnit.MILLISECONDS.sleep(20); // polling the server's own count, for at most 20 s
            }
            assertTrue(serving >= before + burst, "the whole burst is in the server: " + serving + " threads serving");
            long sent = System.nanoTime();
            renewed = api.renew(bystander.key(), bystander.leaseId());
            renewMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            other.rollback();
        }
        System.out.printf("[CheckoutFaultsIT] a burst of %d acquires on one license: another license's renew answered in %d ms%n",
                burst, renewMillis);
        assertEquals(200, renewed.status(), "another license's renew during the burst: " + renewed);
        assertTrue(renewMillis < 1_500, "answered at once, not after a connection of the burst was given back: " + renewMillis + " ms");
        int granted = 0;
        for (CompletableFuture<Api.Reply> acquire : acquires) {
            Api.Reply reply = acquire.get(60, TimeUnit.SECONDS);
            if (reply.status() == 201) {
                granted++;
            } else {
                assertTrue(reply.status() == 409 || reply.status() == 503, "a refusal, not a fault: " + reply);
                assertEquals("application/problem+json", reply.contentType(), reply.toString());
            }
        }
        assertTrue(granted <= 1, "one seat: " + granted + " granted");
        assertEquals(granted, Tables.leasesOf(licenseId), "what was granted is what is held");
    }

    /** A seat held for a release test: a new license of three seats, and one of them acquired by {@code install}. */
    private record HeldSeat(String product, String licenseId, String key, String leaseId) {
    }

    private HeldSeat heldSeat(Api api, String name, String install) {
        String product = uniqueProduct(name);
        JsonObject license = api.createLicense(product, 3, 120, 5);
        String key = license.getString("licenseKey");
        Api.Reply acquired = api.acquire(product, key, install);
        assertEquals(201, acquired.status(), acquired.toString());
        return new HeldSeat(product, license.getString("licenseId"), key, acquired.json().getString("leaseId"));
    }

    /** Locks the row of {@code table} whose key is {@code id}, in {@code connection}'s transaction; returns once held. */
    private static void lockRow(Connection connection, String table, String id) throws Exception {
        try (PreparedStatement lock = connection.prepareStatement(
                "SELECT id FROM " + table + " WHERE id = ? FOR UPDATE")) {
            lock.setString(1, id);
            lock.executeQuery().close();
        }
    }

    /** Returns once the checkout waits for the license row in InnoDB, before it has read anything else. */
    private static void awaitCheckoutAtTheLock(CompletableFuture<Api.Reply> checkout) throws Exception {
        MariaDb.awaitStatement("SELECT % FROM license WHERE % FOR UPDATE%", () -> "the checkout waits for the license row;"
                + " the checkout: " + (checkout.isDone() ? checkout.join().toString() : "still running"));
    }

    private static void insertLiveLease(Connection connection, String leaseId, String licenseId, String install) throws Exception {
        long now = System.currentTimeMillis();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO lease (id, license_id, client_instance_id,"
                + " acquired_at, expires_at) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, leaseId);
            insert.setString(2, licenseId);
            insert.setString(3, install);
            insert.setLong(4, now);
            insert.setLong(5, now + 120_000);
            assertEquals(1, insert.executeUpdate());
        }
    }

    /** A renew that waits out the lock timeout on its lease row (held elsewhere) is busy, not broken: 503, not 500. */
    @Test
    void aRenewThatCannotGetItsLeaseRowInTimeIsA503WithRetryAfter() throws Exception {
        Api api = api();
        String product = uniqueProduct("renew-busy");
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "busy-row").json().getString("leaseId");
        api.markServerLog();
        try (Connection other = MariaDb.connect()) {
            other.setAutoCommit(false);
            lockRow(other, "lease", leaseId);
            Api.Reply busy = api.renew(key, leaseId);
            assertEquals(503, busy.status(), busy.toString());
            assertEquals("application/problem+json", busy.contentType());
            assertEquals("https://keyright.dev/problems/service-unavailable", busy.json().getString("type"));
            assertEquals("1", busy.header("Retry-After"));
            other.rollback();
        }
        assertEquals(200, api.renew(key, leaseId).status(), "the retry renews");
        assertEquals(java.util.List.of(), api.serverWarnings().stream().filter(line -> line.contains("Unexpected server fault")).toList(),
                "a busy row is no server fault (EclipseLink still reports the SQL error at WARNING itself)");
    }

    @Test
    void anInstallReturningAfterItsLeaseExpiredButBeforeTheReaperRanGetsANewSeat() {
        Api api = api();
        String product = uniqueProduct("returning");
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String licenseId = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String first = api.acquire(product, key, "sleepy-laptop").json().getString("leaseId");
        api.advanceClock(Duration.ofSeconds(67)); // past expiresAt + skew; no reaper sweep in between
        assertEquals(1, Tables.leasesOf(licenseId), "the dead row is still there");
        Api.Reply again = api.acquire(product, key, "sleepy-laptop");
        assertEquals(201, again.status(), "a new seat, not the dead lease renewed and not a unique-key fault: " + again);
        assertNotEquals(first, again.json().getString("leaseId"));
        assertEquals(1, Tables.leasesOf(licenseId), "the dead row made way");
        assertEquals(1L, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind = 'EXPIRE'", first),
                "the old lease's end is in the history");
        assertEquals(410, api.renew(key, first).status(), "the old lease stays ended");
    }

    @Test
    void aServerFaultIsA500ProblemThatNamesNothingInternal() {
        Api api = api();
        Api.Reply fault = api.send("POST", "/test-support/fault?kind=bug", null, Map.of());
        assertEquals(500, fault.status());
        assertEquals("application/problem+json", fault.contentType());
        JsonObject problem = fault.json();
        assertEquals("https://keyright.dev/problems/server-error", problem.getString("type"));
        assertEquals(500, problem.getInt("status"));
        assertNotNull(problem.getString("title"));
        for (String leak : new String[] {"secret-table-name", "IllegalStateException", "dev.keyright", "\tat ", "Exception"}) {
            assertFalse(fault.body().contains(leak), "the 500 names nothing internal (" + leak + "): " + fault.body());
        }
    }

    @Test
    void aDatabaseThatWentAwayIsA503ProblemWithRetryAfter() {
        Api api = api();
        Api.Reply down = api.send("POST", "/test-support/fault?kind=database", null, Map.of());
        assertEquals(503, down.status(), down.toString());
        assertEquals("application/problem+json", down.contentType());
        assertEquals("https://keyright.dev/problems/service-unavailable", down.json().getString("type"));
        assertTrue(Integer.parseInt(down.header("Retry-After")) >= 1, down.toString());
        assertFalse(down.body().contains("3306") || down.body().contains("EclipseLink"), "nothing internal: " + down.body());
    }

    @Test
    void anIdempotencyKeySentTwiceIs400AndGrantsNothing() {
        Api api = api();
        String product = uniqueProduct("twice");
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String body = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + license.getString("licenseKey")
                + "\",\"clientInstanceId\":\"twice\"}";
        RawHttp.Reply reply = new RawHttp(base).send("POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json", "Idempotency-Key", "key-a\r\nIdempotency-Key: key-b"), body);
        assertEquals(400, reply.status(), reply.toString());
        assertTrue(reply.body().contains("https://keyright.dev/problems/invalid-request"), reply.body());
        assertTrue(reply.body().contains("Idempotency-Key"), "the refusal names the header: " + reply.body());
        assertEquals(0, Tables.leasesOf(license.getString("licenseId")));
    }

    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /** Weight: InnoDB rolls back the transaction that changed fewer rows, so {@code other} inserts 200 leases. */
    private static void weigh(Connection other, String ballastLicenseId) throws Exception {
        try (PreparedStatement insert = other.prepareStatement("INSERT INTO lease (id, license_id, client_instance_id,"
                + " acquired_at, expires_at) VALUES (?, ?, ?, 0, 0)")) {
            for (int i = 0; i < 200; i++) {
                insert.setString(1, "lease_ballast_" + i);
                insert.setString(2, ballastLicenseId);
                insert.setString(3, "ballast-" + i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static String grantEventOf(Connection connection, String leaseId) throws Exception {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT id FROM lease_event WHERE lease_id = ? AND kind = 'GRANT'")) {
            query.setString(1, leaseId);
            try (ResultSet rows = query.executeQuery()) {
                assertTrue(rows.next(), "the lease's grant is recorded");
                return rows.getString(1);
            }
        }
    }

    private static boolean latestDeadlockMentions(String text) throws Exception {
        try (Connection connection = MariaDb.connectAsRoot();
             ResultSet status = connection.createStatement().executeQuery("SHOW ENGINE INNODB STATUS")) {
            status.next();
            String report = status.getString("Status");
            int section = report.indexOf("LATEST DETECTED DEADLOCK");
            return section >= 0 && report.indexOf(text, section) >= 0;
        }
    }
}
