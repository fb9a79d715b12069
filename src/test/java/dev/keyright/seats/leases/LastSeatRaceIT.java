package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Races;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Racing installs for the last seats on MariaDB: the license row lock lets exactly the seat count through. */
class LastSeatRaceIT extends OnTheServer {

    @Test
    void fiftyInstallsRacingForTenSeatsGetExactlyTen() throws Exception {
        Api api = api();
        String product = uniqueProduct("race");
        JsonObject license = api.createLicense(product, 10, 120, 5);
        List<Integer> statuses = race(api, product, license.getString("licenseKey"), 50);

        Map<Integer, Long> byStatus = statuses.stream().collect(Collectors.groupingBy(s -> s, Collectors.counting()));
        assertEquals(10L, byStatus.getOrDefault(201, 0L), "granted: " + byStatus);
        assertEquals(40L, byStatus.getOrDefault(409, 0L), "refused: " + byStatus);
        assertEquals(10, Tables.leasesOf(license.getString("licenseId")), "the table agrees");
        assertEquals(10, api.pool(product, license.getString("licenseKey")).json().getInt("inUse"));
        assertEquals(10, Tables.count("SELECT checkouts FROM license WHERE id = ?", license.getString("licenseId")),
                "every grant wrote the license row (the Galera certification guard)");
    }

    @Test
    void theLastSeatRaceHoldsRoundAfterRound() throws Exception {
        Api api = api();
        String product = uniqueProduct("rounds");
        JsonObject license = api.createLicense(product, 1, 120, 5);
        String key = license.getString("licenseKey");
        for (int round = 0; round < 5; round++) {
            List<Integer> statuses = race(api, product, key, 12);
            assertEquals(1, statuses.stream().filter(s -> s == 201).count(), "round " + round + ": " + statuses);
            assertEquals(11, statuses.stream().filter(s -> s == 409).count(), "the others are refused, round " + round + ": " + statuses);
            assertEquals(1, Tables.leasesOf(license.getString("licenseId")));
            assertEquals(1, api.pool(product, key).json().getInt("inUse"), "the pool agrees, round " + round);
            JsonObject held = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null).json()
                    .getJsonObject("pool").getJsonArray("holders").getJsonObject(0);
            String holder = held.getString("clientInstanceId");
            String leaseId = held.getString("leaseId");
            assertEquals(204, api.release(key, leaseId).status(), "release by " + holder);
        }
    }

    @Test
    void aCheckoutThatCannotGetTheLicenseLockInTimeIsAFast503AndRenewalsGoOn() throws Exception {
        Api api = api();
        String product = uniqueProduct("busy");
        JsonObject license = api.createLicense(product, 5, 120, 5);
        String key = license.getString("licenseKey");
        String held = api.acquire(product, key, "inst-holder").json().getString("leaseId");
        try (java.sql.Connection blocker = MariaDb.connect()) {
            blocker.setAutoCommit(false);
            try (java.sql.PreparedStatement lock = blocker.prepareStatement("SELECT id FROM license WHERE id = ? FOR UPDATE")) {
                lock.setString(1, license.getString("licenseId"));
                lock.executeQuery().close();
            }
            long started = System.nanoTime();
            Api.Reply busy = api.acquire(product, key, "inst-waiting");
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(503, busy.status(), busy.toString());
            assertEquals("https://keyright.dev/problems/service-unavailable", busy.json().getString("type"));
            assertEquals("1", busy.header("Retry-After"));
            org.junit.jupiter.api.Assertions.assertTrue(waitedMillis < 20_000,
                    "bounded by innodb_lock_wait_timeout (3 s here), never the 50 s default: " + waitedMillis + " ms");
            assertEquals(200, api.renew(key, held).status(), "heartbeats never queue behind checkouts");
            assertEquals(1, Tables.leasesOf(license.getString("licenseId")), "nothing was granted");
            blocker.rollback();
        }
        assertEquals(201, api.acquire(product, key, "inst-waiting").status());
    }

    private static List<Integer> race(Api api, String product, String key, int clients) throws Exception {
        return Races.atOnce(clients, i -> api.acquire(product, key, "inst-" + UUID.randomUUID()).status());
    }
}
