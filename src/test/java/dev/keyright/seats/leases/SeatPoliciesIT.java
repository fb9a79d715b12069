package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Races;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seat policies of API-v2 on MariaDB, racing where a race is possible: overdraft, linger, per-user and
 * per-host caps, reservations, a revoke that blocks its install, and policies changed while seats are held.
 */
class SeatPoliciesIT extends OnTheServer {

    @Test
    void racersGetExactlyTheSeatsPlusTheOverdraftAndTheExtraOnesAreMarked() throws Exception {
        Api api = api();
        String product = uniqueProduct("overdraft");
        JsonObject license = create(api, product, 5, "\"overdraftSeats\":2");
        String key = license.getString("licenseKey");
        assertEquals(2, license.getInt("overdraftSeats"));

        List<Api.Reply> replies = race(20, i -> api.acquire(product, key, "racer-" + i));
        List<Api.Reply> granted = replies.stream().filter(r -> r.status() == 201).toList();
        assertEquals(7, granted.size(), "seats + overdraftSeats: " + statuses(replies));
        assertEquals(13, replies.stream().filter(r -> r.status() == 409).count(), statuses(replies));
        List<Api.Reply> marked = granted.stream().filter(r -> r.json().getBoolean("overdraft", false)).toList();
        assertEquals(2, marked.size(), "the two grants beyond the seats say overdraft");
        for (Api.Reply reply : granted) {
            boolean overdraft = reply.json().getBoolean("overdraft", false);
            assertEquals(overdraft, Api.tokenClaims(reply.json().getString("token")).getBoolean("ovr", false),
                    "the token's ovr claim says what the response says: " + reply.body());
        }
        JsonObject pool = adminPool(api, license);
        assertEquals(7, pool.getInt("inUse"));
        assertEquals(2, pool.getInt("overdraftInUse"));
        assertEquals(2, pool.getJsonArray("holders").stream().filter(h -> h.asJsonObject().getBoolean("overdraft", false)).count());
        assertEquals(7, Tables.leasesOf(license.getString("licenseId")), "the table agrees");

        Api.Reply oneMore = api.acquire(product, key, "one-more");
        assertEquals(409, oneMore.status());
        assertEquals("https://keyright.dev/problems/seats-exhausted", oneMore.json().getString("type"));
        assertEquals(2, oneMore.json().getInt("overdraftSeats"), "the refusal carries the numbers: " + oneMore.body());
        assertEquals(7, oneMore.json().getInt("seatsInUse"));

        JsonObject usage = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId") + "/usage?bucket=day", null).json();
        // summed over the days: this test's events may straddle midnight
        assertEquals(2, sum(usage, b -> b.getInt("overdraftCheckouts")), "overdraft use is visible per day: " + usage);
        assertEquals(2, usage.getJsonArray("buckets").getValuesAs(JsonObject.class).stream()
                .mapToInt(b -> b.getInt("peakOverdraft")).max().orElse(0));
        assertTrue(sum(usage, b -> b.getJsonObject("denialsByReason").getInt("seats-exhausted", 0)) >= 14, usage.toString());
    }

    @Test
    void aReleasedSeatLingersForItsInstallAndNoOneElseUntilTheWindowEnds() {
        Api api = api();
        String product = uniqueProduct("linger");
        JsonObject license = create(api, product, 1, "\"lingerSeconds\":300,\"ttlSeconds\":600,\"skewSeconds\":5");
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "tool").json().getString("leaseId");
        assertEquals(204, api.release(key, leaseId).status());

        JsonObject holder = adminPool(api, license).getJsonArray("holders").getJsonObject(0);
        assertEquals(leaseId, holder.getString("leaseId"));
        assertNotNull(holder.getString("lingeringUntil", null), "the pool shows the lingering seat: " + holder);
        assertEquals(410, api.renew(key, leaseId).status(), "a released seat is not renewed");
        assertEquals(404, api.release(key, leaseId).status(), "nor released twice");
        Api.Reply other = api.acquire(product, key, "someone-else");
        assertEquals(409, other.status(), "another install cannot take the lingering seat: " + other);

        Api.Reply back = api.acquire(product, key, "tool");
        assertEquals(200, back.status(), "the same install within the window gets its seat back: " + back);
        assertEquals(leaseId, back.json().getString("leaseId"));
        assertEquals(200, api.renew(key, leaseId).status(), "held again, renewed again");
        assertFalse(adminPool(api, license).getJsonArray("holders").getJsonObject(0).containsKey("lingeringUntil"));

        assertEquals(204, api.release(key, leaseId).status());
        api.advanceClock(Duration.ofSeconds(299));
        assertEquals(409, api.acquire(product, key, "someone-else").status(), "still inside the window");
        api.advanceClock(Duration.ofSeconds(2 + 5)); // past acquiredAt + linger, and past its skew
        assertEquals(201, api.acquire(product, key, "someone-else").status(), "after the window the seat is free");
    }

    @Test
    void aCrashedHolderIsNotKeptByLinger() {
        Api api = api();
        String product = uniqueProduct("linger-crash");
        JsonObject license = create(api, product, 1, "\"lingerSeconds\":3600,\"ttlSeconds\":60,\"skewSeconds\":5");
        String key = license.getString("licenseKey");
        assertEquals(201, api.acquire(product, key, "crashes").status());
        api.advanceClock(Duration.ofSeconds(67));
        assertEquals(201, api.acquire(product, key, "next").status(), "expiry without release is not extended by linger");
    }

    @Test
    void twentyRacersOfOneUserOnMaxPerUserTwoGetExactlyTwo() throws Exception {
        Api api = api();
        String product = uniqueProduct("per-user");
        JsonObject license = create(api, product, 10, "\"maxPerUser\":2");
        String key = license.getString("licenseKey");
        List<Api.Reply> replies = race(20, i -> api.acquireAs(product, key, "alice-" + i, "alice", "host-" + i));
        assertEquals(2, replies.stream().filter(r -> r.status() == 201).count(), statuses(replies));
        List<Api.Reply> refused = replies.stream().filter(r -> r.status() == 409).toList();
        assertEquals(18, refused.size(), statuses(replies));
        refused.forEach(r -> assertEquals("https://keyright.dev/problems/user-limit-reached", r.json().getString("type"), r.body()));
        assertEquals(2, refused.get(0).json().getInt("maxPerUser"));
        assertEquals(201, api.acquireAs(product, key, "bob-1", "bob", "host-1").status(), "another user is not capped");
        assertEquals(201, api.acquireAs(product, key, "nameless", null, null).status(),
                "a client that reports no user is not counted as one");

        JsonObject usage = api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId") + "/usage?bucket=day", null).json();
        assertEquals(18, sum(usage, b -> b.getJsonObject("denialsByReason").getInt("user-limit-reached", 0)),
                "denials are recorded with their reason");
        assertEquals(18L, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'DENY'"
                + " AND reason = 'user-limit-reached'", license.getString("licenseId")));
    }

    @Test
    void racersOnOneHostOnMaxPerHostOneGetExactlyOne() throws Exception {
        Api api = api();
        String product = uniqueProduct("per-host");
        JsonObject license = create(api, product, 10, "\"maxPerHost\":1");
        String key = license.getString("licenseKey");
        List<Api.Reply> replies = race(10, i -> api.acquireAs(product, key, "build-" + i, "user-" + i, "build-box"));
        assertEquals(1, replies.stream().filter(r -> r.status() == 201).count(), statuses(replies));
        replies.stream().filter(r -> r.status() != 201).forEach(r -> {
            assertEquals(409, r.status());
            assertEquals("https://keyright.dev/problems/host-limit-reached", r.json().getString("type"));
        });
    }

    @Test
    void reservedSeatsStayForTheirHostsWhileTenOthersRace() throws Exception {
        Api api = api();
        String product = uniqueProduct("reserved");
        JsonObject license = create(api, product, 5,
                "\"reservations\":[{\"name\":\"render-farm\",\"hosts\":[\"rf-01\",\"rf-02\"],\"seats\":2}]");
        String key = license.getString("licenseKey");
        assertEquals("render-farm", license.getJsonArray("reservations").getJsonObject(0).getString("name"));

        List<Api.Reply> replies = race(10, i -> api.acquireAs(product, key, "other-" + i, "user-" + i, "laptop-" + i));
        assertEquals(3, replies.stream().filter(r -> r.status() == 201).count(), "others get seats - reserved: " + statuses(replies));
        Api.Reply refused = replies.stream().filter(r -> r.status() == 409).findFirst().orElseThrow();
        assertEquals("https://keyright.dev/problems/seats-exhausted", refused.json().getString("type"));
        assertEquals(2, refused.json().getInt("reservedForOthers"), refused.body());

        assertEquals(201, api.acquireAs(product, key, "farm-1", "render", "rf-01").status(), "the reserved hosts get theirs");
        assertEquals(201, api.acquireAs(product, key, "farm-2", "render", "rf-02").status());
        assertEquals(409, api.acquireAs(product, key, "farm-3", "render", "rf-02").status(), "the pool is full now");
        JsonObject reserved = adminPool(api, license).getJsonArray("reserved").getJsonObject(0);
        assertEquals(2, reserved.getInt("inUse"));

        Api.Reply tooMany = api.admin("PATCH", "/v1/admin/licenses/" + license.getString("licenseId"),
                "{\"reservations\":[{\"name\":\"a\",\"hosts\":[\"x\"],\"seats\":3},{\"name\":\"b\",\"users\":[\"y\"],\"seats\":3}]}");
        assertEquals(400, tooMany.status());
        assertEquals("reservations", tooMany.json().getJsonArray("errors").getJsonObject(0).getString("field"), tooMany.body());
    }

    @Test
    void aRevokeWithABlockRefusesTheInstallUntilTheBlockEndsAndAPlainRevokeDoesNot() {
        Api api = api();
        String product = uniqueProduct("block");
        JsonObject license = create(api, product, 2, "\"ttlSeconds\":600");
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "misbehaving").json().getString("leaseId");
        assertFalse(Tables.mayHaveBlocks(id), "a new license has no blocks: its checkouts do not read install_block");

        assertEquals(400, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + leaseId + "?blockSeconds=86401", null).status());
        assertEquals(400, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + leaseId + "?blockSeconds=-1", null).status());
        assertEquals(1, Tables.leasesOf(id), "a refused revoke changes nothing");
        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + leaseId + "?blockSeconds=600", null).status());
        assertTrue(Tables.mayHaveBlocks(id), "a revoke that blocks sets the license's flag with the block");

        Api.Reply blocked = api.acquire(product, key, "misbehaving");
        assertEquals(403, blocked.status(), blocked.toString());
        assertEquals("https://keyright.dev/problems/install-blocked", blocked.json().getString("type"));
        assertNotNull(blocked.json().getString("blockedUntil"));
        assertEquals("600", blocked.header("Retry-After"));
        assertEquals(201, api.acquire(product, key, "someone-else").status(), "only that install is blocked");

        api.advanceClock(Duration.ofSeconds(599));
        assertEquals(403, api.acquire(product, key, "misbehaving").status());
        assertTrue(Tables.mayHaveBlocks(id), "while a block is in force the flag stays set");
        api.advanceClock(Duration.ofSeconds(1));
        Api.Reply returned = api.acquire(product, key, "misbehaving");
        assertEquals(201, returned.status(), "the block ended: the install has a seat again: " + returned);
        assertFalse(Tables.mayHaveBlocks(id), "the checkout that found no block in force cleared the flag");
        String again = returned.json().getString("leaseId");

        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + again, null).status());
        assertFalse(Tables.mayHaveBlocks(id), "a plain revoke blocks nobody");
        Api.Reply back = api.acquire(product, key, "misbehaving");
        assertEquals(201, back.status(), "a plain revoke still lets it return");
        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + back.json().getString("leaseId")
                + "?blockSeconds=60", null).status());
        Api.Reply blockedAgain = api.acquire(product, key, "misbehaving");
        assertEquals(403, blockedAgain.status(), "a block after the flag was cleared refuses as the first did: " + blockedAgain);
    }

    @Test
    void aBlockAnOlderNodeAddedWithoutTheFlagIsFlaggedWhenANodeStarts() throws Exception {
        Api api = api();
        String product = uniqueProduct("oldblock");
        JsonObject license = create(api, product, 2, "\"ttlSeconds\":600");
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        assertEquals(201, api.acquire(product, key, "someone").status());
        assertFalse(Tables.mayHaveBlocks(id));
        long until = api.advanceClock(Duration.ZERO) + 600_000; // the server's now (its clock moves in these tests), + 600 s
        try (Connection connection = MariaDb.connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO install_block"
                     + " (license_id, client_instance_id, blocked_until, blocked_at) VALUES (?, ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setString(2, "blocked-by-an-old-node");
            insert.setLong(3, until);
            insert.setLong(4, until - 600_000);
            insert.executeUpdate(); // as a node of schema version 6 blocks: the license row's flag untouched
        }

        assertTrue(api.flagLicenses().getInt("licensesFlagged") >= 1, "the start-up step sets the flag of this license");
        assertTrue(Tables.mayHaveBlocks(id));
        Api.Reply refused = api.acquire(product, key, "blocked-by-an-old-node");
        assertEquals(403, refused.status(), "and the block is in force on this node: " + refused);
    }

    @Test
    void policiesChangedWhileSeatsAreHeldTakeNoSeatAndRuleTheNextCheckouts() {
        Api api = api();
        String product = uniqueProduct("patch");
        JsonObject license = create(api, product, 4, "\"overdraftSeats\":1");
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        List<String> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(api.acquireAs(product, key, "carol-" + i, "carol", "desk-" + i).json().getString("leaseId"));
        }
        Api.Reply patched = api.admin("PATCH", "/v1/admin/licenses/" + id,
                "{\"maxPerUser\":1,\"maxPerHost\":1,\"lingerSeconds\":60,\"overdraftSeats\":0,"
                        + "\"reservations\":[{\"name\":\"ops\",\"users\":[\"ops\"],\"seats\":1}]}");
        assertEquals(200, patched.status(), patched.toString());
        assertEquals(1, patched.json().getInt("maxPerUser"));
        assertEquals(60, patched.json().getInt("lingerSeconds"));
        for (String leaseId : held) {
            assertEquals(200, api.renew(key, leaseId).status(), "nobody loses a held seat");
        }
        assertEquals(3, Tables.leasesOf(id));
        Api.Reply capped = api.acquireAs(product, key, "carol-9", "carol", "desk-9");
        assertEquals("https://keyright.dev/problems/user-limit-reached", capped.json().getString("type"), "new checkouts follow the cap");
        Api.Reply reservedAway = api.acquireAs(product, key, "dave-1", "dave", "desk-10");
        assertEquals(409, reservedAway.status(), "the fourth seat is kept for ops: " + reservedAway);
        assertEquals(201, api.acquireAs(product, key, "ops-1", "ops", "desk-11").status());
        Api.Reply beyond = api.acquireAs(product, key, "erin-1", "erin", "desk-12");
        assertEquals(409, beyond.status(), "the overdraft is 0 now: four seats, four held: " + beyond);
        assertEquals(204, api.release(key, held.get(0)).status());
        assertEquals(4, api.pool(product, key).json().getInt("inUse"), "a seat released after the change lingers for its install");
        assertEquals(409, api.acquireAs(product, key, "erin-1", "erin", "desk-12").status());

        Api.Reply cleared = api.admin("PATCH", "/v1/admin/licenses/" + id, "{\"maxPerUser\":null,\"reservations\":null}");
        assertEquals(JsonValue.NULL, cleared.json().get("maxPerUser"), cleared.body());
        assertEquals(0, cleared.json().getJsonArray("reservations").size());
    }

    @Test
    void invalidPoliciesAreRefusedNamingTheFieldAndChangeNothing() {
        Api api = api();
        String product = uniqueProduct("invalid");
        Api.Reply refused = api.admin("POST", "/v1/admin/licenses", "{\"product\":\"" + product + "\",\"seats\":3,"
                + "\"overdraftSeats\":4,\"lingerSeconds\":3601,\"maxPerUser\":0,\"maxPerHost\":5,"
                + "\"reservations\":[{\"name\":\"r\",\"hosts\":[\"h\"],\"seats\":4}]}");
        assertEquals(400, refused.status(), refused.toString());
        assertEquals("application/problem+json", refused.contentType());
        List<String> fields = refused.json().getJsonArray("errors").stream()
                .map(e -> e.asJsonObject().getString("field")).toList();
        assertTrue(fields.containsAll(List.of("maxPerHost", "overdraftSeats", "lingerSeconds", "maxPerUser", "reservations")), fields.toString());
        assertEquals(0L, Tables.count("SELECT COUNT(*) FROM license WHERE product = ?", product), "nothing was created");
        Api.Reply notANumber = api.admin("POST", "/v1/admin/licenses", "{\"product\":\"" + product + "\",\"seats\":3,"
                + "\"maxPerHost\":\"two\",\"reservations\":{}}");
        assertEquals(400, notANumber.status());
        assertEquals(List.of("maxPerHost", "reservations"), notANumber.json().getJsonArray("errors").stream()
                .map(e -> e.asJsonObject().getString("field")).toList());

        JsonObject license = create(api, product, 3, "\"maxPerUser\":2");
        Api.Reply patch = api.admin("PATCH", "/v1/admin/licenses/" + license.getString("licenseId"), "{\"maxPerUser\":4}");
        assertEquals(400, patch.status());
        assertEquals("maxPerUser", patch.json().getJsonArray("errors").getJsonObject(0).getString("field"));
        assertEquals(2, api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null).json().getInt("maxPerUser"),
                "a refused change changes nothing");
    }

    private static JsonObject create(Api api, String product, int seats, String policies) {
        Api.Reply reply = api.admin("POST", "/v1/admin/licenses",
                "{\"product\":\"" + product + "\",\"seats\":" + seats + "," + policies + "}");
        assertEquals(201, reply.status(), reply.toString());
        return reply.json();
    }

    private static JsonObject adminPool(Api api, JsonObject license) {
        return api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null).json().getJsonObject("pool");
    }

    private static int sum(JsonObject usage, java.util.function.ToIntFunction<JsonObject> member) {
        return usage.getJsonArray("buckets").getValuesAs(JsonObject.class).stream().mapToInt(member).sum();
    }

    private static String statuses(List<Api.Reply> replies) {
        Map<Integer, Long> byStatus = replies.stream().collect(Collectors.groupingBy(Api.Reply::status, Collectors.counting()));
        return byStatus.toString();
    }

    private static List<Api.Reply> race(int clients, IntFunction<Api.Reply> request) throws Exception {
        return Races.atOnce(clients, request);
    }
}
