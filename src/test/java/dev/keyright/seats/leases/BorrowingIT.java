package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.activations.ActivationsIT;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Tables;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Borrowing a floating seat for offline use (API-v2): a borrowed lease is still just a lease, counted by the one
 * liveness rule until {@code borrowedUntil + skew} and not one millisecond longer, never moved by a heartbeat,
 * returned at once by an early release; the license's {@code maxBorrowHours} bounds it. Expiry is tested on the
 * server's movable clock, without waiting.
 */
class BorrowingIT extends OnTheServer {

    private static final int SKEW = 5;

    @Test
    void aBorrowedSeatCountsUntilBorrowedUntilPlusSkewAndNotOneMillisecondLonger() {
        Api api = api();
        String product = uniqueProduct("borrow");
        JsonObject license = lendingLicense(api, product, 1, 8, 0);
        String key = license.getString("licenseKey");
        JsonObject acquired = api.acquire(product, key, "laptop-1").json();
        String leaseId = acquired.getString("leaseId");
        Instant before = Instant.now();

        Api.Reply borrowed = api.borrow(key, leaseId, 8);
        assertEquals(200, borrowed.status(), borrowed.toString());
        JsonObject body = borrowed.json();
        Instant until = Instant.parse(body.getString("borrowedUntil"));
        assertEquals(body.getString("expiresAt"), body.getString("borrowedUntil"), "a borrowed lease ends when it is borrowed until");
        assertTrue(!until.isBefore(before.plus(Duration.ofHours(8))) && until.isBefore(Instant.now().plus(Duration.ofHours(8)).plusSeconds(2)),
                "now + 8 h, rounded up to a second: " + until);
        JsonObject claims = Api.tokenClaims(body.getString("token"));
        assertTrue(claims.getBoolean("bor"), "the token says it is borrowed: " + claims);
        assertEquals(until.getEpochSecond(), claims.getJsonNumber("exp").longValue(), "and ends when the lease does");

        Api.Reply renewed = api.renew(key, leaseId);
        assertEquals(200, renewed.status(), renewed.toString());
        assertEquals(body.getString("expiresAt"), renewed.json().getString("expiresAt"), "renew neither shortens nor extends it");
        assertEquals(body.getString("borrowedUntil"), renewed.json().getString("borrowedUntil"));
        assertTrue(Api.tokenClaims(renewed.json().getString("token")).getBoolean("bor"));
        Api.Reply again = api.acquire(product, key, "laptop-1");
        assertEquals(200, again.status(), "the same install gets its borrowed seat back: " + again);
        assertEquals(body.getString("expiresAt"), again.json().getString("expiresAt"), "unchanged");
        JsonObject holder = api.pool(product, key).json().getJsonArray("holders").getJsonObject(0);
        assertEquals(body.getString("borrowedUntil"), holder.getString("borrowedUntil"), "the pool shows it");

        api.freezeClock(until.plusSeconds(SKEW).toEpochMilli());
        assertEquals(409, api.acquire(product, key, "desk-2").status(), "still live at borrowedUntil + skew: the one rule");
        api.reap();
        assertEquals(1, Tables.leasesOf(license.getString("licenseId")), "the reaper leaves a live borrowed lease alone");
        api.freezeClock(until.plusSeconds(SKEW).toEpochMilli() + 1);
        assertEquals(201, api.acquire(product, key, "desk-2").status(), "one millisecond later the seat is free");
        assertEquals(410, api.renew(key, leaseId).status(), "and the borrowed lease is over");
    }

    @Test
    void aLeaseKeepsCountingAfterItsTtlWhenBorrowedWhereAnUnborrowedOneIsFree() {
        Api api = api();
        String product = uniqueProduct("borrow-ttl");
        JsonObject license = lendingLicense(api, product, 2, 2, 0);
        String key = license.getString("licenseKey");
        String kept = api.acquire(product, key, "laptop-1").json().getString("leaseId");
        api.acquire(product, key, "desk-1");
        assertEquals(200, api.borrow(key, kept, 1).status());
        api.advanceClock(Duration.ofSeconds(120 + SKEW + 1)); // past the TTL of both
        assertEquals(201, api.acquire(product, key, "desk-2").status(), "the seat whose TTL ran out is free");
        assertEquals(409, api.acquire(product, key, "desk-3").status(), "the borrowed one is still held");
        assertEquals(200, api.renew(key, kept).status(), "and its holder may still renew it (answered as it is)");
    }

    @Test
    void borrowingPastTheMaximumIs400AndBorrowingOffIs403AndNeitherChangesTheLease() {
        Api api = api();
        String product = uniqueProduct("borrow-max");
        JsonObject license = lendingLicense(api, product, 1, 8, 0);
        String key = license.getString("licenseKey");
        JsonObject lease = api.acquire(product, key, "laptop-1").json();
        String leaseId = lease.getString("leaseId");

        Api.Reply tooLong = api.borrow(key, leaseId, 9);
        assertEquals(400, tooLong.status(), tooLong.toString());
        assertEquals("hours", tooLong.json().getJsonArray("errors").getJsonObject(0).getString("field"));
        assertTrue(tooLong.json().getJsonArray("errors").getJsonObject(0).getString("message").contains("1 to 8"), tooLong.toString());
        assertEquals(400, api.borrow(key, leaseId, 0).status(), "at least an hour");
        Api.Reply renewed = api.renew(key, leaseId);
        assertFalse(renewed.json().containsKey("borrowedUntil"), "nothing was borrowed: " + renewed);
        assertFalse(Api.tokenClaims(renewed.json().getString("token")).containsKey("bor"));

        String offProduct = uniqueProduct("borrow-off");
        JsonObject off = api.createLicense(offProduct, 1, 120, SKEW);
        assertEquals(0, off.getInt("maxBorrowHours"), "borrowing is off unless the license allows it");
        String offLease = api.acquire(offProduct, off.getString("licenseKey"), "laptop-1").json().getString("leaseId");
        Api.Reply refused = api.borrow(off.getString("licenseKey"), offLease, 1);
        assertEquals(403, refused.status(), refused.toString());
        assertEquals("https://keyright.dev/problems/borrowing-not-allowed", refused.json().getString("type"));
        assertEquals(404, api.borrow(key, "lease_00000000000000000000000000000000", 1).status(), "an unknown lease");
        assertEquals(404, api.borrow(key, offLease, 1).status(), "another license's lease is never revealed");
    }

    @Test
    void anEarlyReturnFreesTheSeatAtOnceWithoutLingerAndTheHistorySaysBorrowAndReturn() {
        Api api = api();
        String product = uniqueProduct("borrow-return");
        JsonObject license = lendingLicense(api, product, 1, 8, 600); // a plain release would linger 10 minutes
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "laptop-1").json().getString("leaseId");
        assertEquals(200, api.borrow(key, leaseId, 4).status());
        assertEquals(204, api.release(key, leaseId).status(), "the return, when back online");
        assertEquals(201, api.acquire(product, key, "desk-2").status(), "the seat is free at once");
        assertEquals(410, api.renew(key, leaseId).status());
        JsonObject bucket = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId") + "/usage", null)
                .json().getJsonArray("buckets").stream().map(v -> v.asJsonObject())
                .filter(b -> b.getInt("acquisitions") > 0).findFirst().orElseThrow();
        assertEquals(1, bucket.getInt("borrows"), bucket.toString());
        assertEquals(1, bucket.getInt("returns"), bucket.toString());
        assertEquals(0, bucket.getInt("releases"), "a return is not counted as a plain release: " + bucket);
    }

    @Test
    void anAdministratorRevokesABorrowedSeatAndItIsFreeOnTheServerAtOnce() {
        Api api = api();
        String product = uniqueProduct("borrow-revoke");
        JsonObject license = lendingLicense(api, product, 1, 8, 0);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        String leaseId = api.acquire(product, key, "laptop-1").json().getString("leaseId");
        assertEquals(200, api.borrow(key, leaseId, 8).status());
        JsonObject held = api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json()
                .getJsonObject("pool").getJsonArray("holders").getJsonObject(0);
        assertTrue(held.containsKey("borrowedUntil"), "the admin pool shows it: " + held);
        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + licenseId + "/leases/" + leaseId, null).status());
        assertEquals(201, api.acquire(product, key, "desk-2").status(), "free at once on the server");
        assertEquals(410, api.renew(key, leaseId).status());
    }

    @Test
    void floatingSeatCallsOnANodeLockedLicenseAreTheWrongModel() {
        Api api = api();
        String product = uniqueProduct("nl-seat");
        JsonObject license = ActivationsIT.nodeLockedLicense(api, product, 2, 30);
        String key = license.getString("licenseKey");
        for (Api.Reply reply : new Api.Reply[] {api.acquire(product, key, "laptop-1"), api.pool(product, key),
                api.renew(key, "lease_00000000000000000000000000000000"), api.leaveQueue(key, "laptop-1"),
                api.release(key, "lease_00000000000000000000000000000000"),
                api.borrow(key, "lease_00000000000000000000000000000000", 1)}) {
            assertEquals(409, reply.status(), reply.toString());
            assertEquals("https://keyright.dev/problems/wrong-license-model", reply.json().getString("type"));
            assertEquals("node-locked", reply.json().getString("model"));
        }
        assertEquals(0, Tables.leasesOf(license.getString("licenseId")));
    }

    /** A floating license that lends seats for up to {@code maxBorrowHours}. */
    static JsonObject lendingLicense(Api api, String product, int seats, int maxBorrowHours, int lingerSeconds) {
        return api.createLicense(Json.createObjectBuilder().add("product", product).add("seats", seats)
                .add("ttlSeconds", 120).add("skewSeconds", SKEW).add("maxBorrowHours", maxBorrowHours)
                .add("lingerSeconds", lingerSeconds).build());
    }
}
