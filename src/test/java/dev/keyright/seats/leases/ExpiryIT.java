package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry on the server's clock, moved by the test instead of waited for: the liveness rule at its
 * exact boundary, renew after expiry, and the reaper deleting only past the grace.
 */
class ExpiryIT extends OnTheServer {


    @AfterEach
    void letTimeRun() {
        api().thawClock();
    }

    @Test
    void aSeatIsNotFreeOneMillisecondBeforeExpiryPlusSkewAndIsFreeAfter() {
        Api api = api();
        String product = uniqueProduct("exp");
        JsonObject license = api.createLicense(product, 1, 30, 5);
        String key = license.getString("licenseKey");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        JsonObject lease = api.acquire(product, key, "inst-a").json();
        long deadline = Instant.parse(lease.getString("expiresAt")).toEpochMilli() + 5_000;

        api.freezeClock(deadline - 1);
        assertEquals(409, api.acquire(product, key, "inst-b").status(), "1 ms before expiresAt + skew: still held");
        api.freezeClock(deadline);
        assertEquals(409, api.acquire(product, key, "inst-b").status(), "at expiresAt + skew: still live (now <= expiresAt + skew)");
        api.freezeClock(deadline + 1);
        Api.Reply taken = api.acquire(product, key, "inst-b");
        assertEquals(201, taken.status(), "1 ms after expiresAt + skew the seat is free: " + taken);
        assertEquals(1, taken.json().getInt("seatsInUse"));
        assertEquals(2, Tables.leasesOf(license.getString("licenseId")), "freed by the count, before any reaper ran");
    }

    @Test
    void theAdminListJudgesEachPoolByItsOwnLicensesSkewLikeTheSingleLicenseView() {
        Api api = api();
        String product = uniqueProduct("exp");
        JsonObject strictLicense = api.createLicense(product + "-s0", 2, 30, 0);
        JsonObject lenientLicense = api.createLicense(product + "-s10", 2, 30, 10);
        String strict = strictLicense.getString("licenseId");
        String lenient = lenientLicense.getString("licenseId");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        JsonObject a = api.acquire(product + "-s0", strictLicense.getString("licenseKey"), "inst-a").json();
        JsonObject b = api.acquire(product + "-s10", lenientLicense.getString("licenseKey"), "inst-b").json();
        long expiresAt = Instant.parse(a.getString("expiresAt")).toEpochMilli();
        assertEquals(expiresAt, Instant.parse(b.getString("expiresAt")).toEpochMilli(), "same TTL, same frozen clock");

        api.freezeClock(expiresAt + 5_000); // past the strict license's expiry + 0 s, within the lenient one's + 10 s
        Map<String, Integer> listed = new java.util.HashMap<>();
        for (var entry : api.admin("GET", "/v1/admin/licenses", null).json().getJsonArray("licenses")) {
            JsonObject item = entry.asJsonObject();
            listed.put(item.getString("licenseId"), item.getJsonObject("pool").getInt("inUse"));
        }
        assertEquals(0, listed.get(strict), "skew 0: expired 5 s ago");
        assertEquals(1, listed.get(lenient), "skew 10: still live");
        for (String id : new String[] {strict, lenient}) {
            JsonObject single = api.admin("GET", "/v1/admin/licenses/" + id, null).json().getJsonObject("pool");
            assertEquals(single.getInt("inUse"), listed.get(id), "the list and the single view agree for " + id);
        }
    }

    @Test
    void aRenewAfterExpiryPlusSkewIsGoneEvenBeforeTheReaperRan() {
        Api api = api();
        String product = uniqueProduct("exp");
        JsonObject license = api.createLicense(product, 1, 30, 5);
        String key = license.getString("licenseKey");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        JsonObject lease = api.acquire(product, key, "inst-a").json();
        long deadline = Instant.parse(lease.getString("expiresAt")).toEpochMilli() + 5_000;

        api.freezeClock(deadline);
        Api.Reply inTime = api.renew(key, lease.getString("leaseId"));
        assertEquals(200, inTime.status(), "renew at exactly expiresAt + skew is in time");
        long renewedDeadline = Instant.parse(inTime.json().getString("expiresAt")).toEpochMilli() + 5_000;

        api.freezeClock(renewedDeadline + 1);
        Api.Reply late = api.renew(key, lease.getString("leaseId"));
        assertEquals(410, late.status(), late.toString());
        assertEquals("https://keyright.dev/problems/lease-expired", late.json().getString("type"));
        assertEquals(1, Tables.leasesOf(license.getString("licenseId")), "the row is still there: no reaper ran");
    }

    /**
     * The race the reaper's row lock and re-check exist for: a renew whose transaction is still open when the
     * sweep reads the rows past the cut-off. A transaction of the test's own stands in for that renew (it moves
     * the lease's expiry forward and holds the row); the sweep must wait for it, and after it commits must leave
     * the renewed lease alone while it reaps the one that really died. Without the lock the sweep deletes the
     * renewed lease; without a reaper nothing is reaped.
     */
    @Test
    void aSweepRacingARenewThatCommitsWhileItWaitsReapsOnlyTheLeaseThatReallyDied() throws Exception {
        Api api = api();
        String product = uniqueProduct("reap-race");
        JsonObject license = api.createLicense(product, 3, 30, 0);
        String key = license.getString("licenseKey");
        String id = license.getString("licenseId");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        String renewed = api.acquire(product, key, "renewing").json().getString("leaseId");
        String dead = api.acquire(product, key, "crashed").json().getString("leaseId");
        long past = start + 30_000 + 15_000 + 60_000; // both past expiresAt + the reaper's grace (15 s)
        api.freezeClock(past);
        long renewedTo = past + 30_000;
        java.util.concurrent.CompletableFuture<JsonObject> sweep;
        try (java.sql.Connection renew = dev.keyright.seats.testing.MariaDb.connect()) {
            renew.setAutoCommit(false);
            try (java.sql.PreparedStatement update = renew.prepareStatement("UPDATE lease SET expires_at = ? WHERE id = ?")) {
                update.setLong(1, renewedTo);
                update.setString(2, renewed);
                assertEquals(1, update.executeUpdate());
            }
            sweep = java.util.concurrent.CompletableFuture.supplyAsync(api::reap);
            dev.keyright.seats.testing.MariaDb.awaitStatement("SELECT%FROM lease%FOR UPDATE%", () -> "a sweep waits for the renew's row lock");
            renew.commit();
        }
        sweep.get(30, java.util.concurrent.TimeUnit.SECONDS);
        api.reap(); // the timer's sweep may have been the one that waited: either way the table is what counts
        assertEquals(1, Tables.leasesOf(id), "the dead lease was reaped, the renewed one was not");
        assertEquals(renewedTo, Tables.count("SELECT expires_at FROM lease WHERE id = ?", renewed), "with its renewed expiry");
        assertEquals(1L, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind = 'EXPIRE'", dead));
        assertEquals(0L, Tables.count("SELECT COUNT(*) FROM lease_event WHERE lease_id = ? AND kind = 'EXPIRE'", renewed));
        assertEquals(200, api.renew(key, renewed).status(), "the renewed lease is live");
    }

    @Test
    void theReaperDeletesOnlyLeasesDeadPastTheGrace() {
        Api api = api();
        String product = uniqueProduct("reap");
        JsonObject license = api.createLicense(product, 3, 30, 5);
        String key = license.getString("licenseKey");
        String id = license.getString("licenseId");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        JsonObject lease = api.acquire(product, key, "inst-a").json();
        long expiresAt = Instant.parse(lease.getString("expiresAt")).toEpochMilli();
        long grace = 15_000; // KEYRIGHT_REAP_GRACE_SECONDS default

        api.freezeClock(expiresAt + grace);
        api.reap();
        assertEquals(1, Tables.leasesOf(id), "exactly at expiresAt + grace the row stays");
        api.freezeClock(expiresAt + grace + 1);
        api.reap(); // the timer may have swept first: the table is what counts
        assertEquals(0, Tables.leasesOf(id), "past the grace the row is reaped");
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'EXPIRE'", id));
        assertEquals(410, api.renew(key, lease.getString("leaseId")).status(), "a reaped lease is gone, not unknown");
    }

    @Test
    void usageHistoryIsPurgedAfterItsRetention() {
        Api api = api();
        String product = uniqueProduct("ret");
        JsonObject license = api.createLicense(product, 1, 30, 5);
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "inst-old").json().getString("leaseId");
        assertEquals(204, api.release(key, leaseId).status());
        String id = license.getString("licenseId");
        assertEquals(2, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ?", id));
        api.advanceClock(Duration.ofDays(399));
        api.reap();
        assertEquals(2, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ?", id), "kept 400 days");
        api.advanceClock(Duration.ofDays(2));
        api.reap();
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ?", id), "purged after");
    }

    @Test
    void theReaperLeavesLiveAndRecentlyRenewedLeasesAlone() {
        Api api = api();
        String product = uniqueProduct("reap");
        JsonObject license = api.createLicense(product, 3, 30, 5);
        String key = license.getString("licenseKey");
        long start = api.advanceClock(Duration.ZERO);
        api.freezeClock(start);
        String leaseId = api.acquire(product, key, "inst-a").json().getString("leaseId");
        for (int beat = 1; beat <= 6; beat++) {
            api.freezeClock(start + beat * 10_000L);
            assertEquals(200, api.renew(key, leaseId).status());
            api.reap();
        }
        assertEquals(1, Tables.leasesOf(license.getString("licenseId")));
        assertEquals(1, api.pool(product, key).json().getInt("inUse"));
    }
}
