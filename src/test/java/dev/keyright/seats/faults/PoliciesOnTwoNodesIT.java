package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Races;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Seat policies on two nodes sharing MariaDB: a block made on one node refuses the install on the other, and
 * a per-user cap and an overdraft hold when racers arrive through both nodes at once.
 */
class PoliciesOnTwoNodesIT extends OnTwoNodes {

    @Test
    void anInstallBlockedOnOneNodeIsRefusedOnTheOther() {
        List<Api> apis = apis();
        JsonObject license = license(3, 600, 1);
        String id = license.getString("licenseId");
        String product = license.getString("product");
        String key = license.getString("licenseKey");
        String leaseId = apis.get(1).acquire(product, key, "blocked-here").json().getString("leaseId");
        assertEquals(204, apis.get(0).admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + leaseId + "?blockSeconds=3600", null).status());
        for (Api node : apis) {
            Api.Reply refused = node.acquire(product, key, "blocked-here");
            assertEquals(403, refused.status(), refused.toString());
            assertEquals("https://keyright.dev/problems/install-blocked", refused.json().getString("type"));
        }
        assertEquals(0, Tables.leasesOf(id));
    }

    @Test
    void aUserCapAndAnOverdraftHoldWithRacersOnBothNodes() throws Exception {
        List<Api> apis = apis();
        Api first = apis.get(0);
        String product = "pol-" + UUID.randomUUID().toString().substring(0, 8);
        Api.Reply created = first.admin("POST", "/v1/admin/licenses",
                "{\"product\":\"" + product + "\",\"seats\":4,\"overdraftSeats\":2,\"maxPerUser\":3}");
        assertEquals(201, created.status(), created.toString());
        String id = created.json().getString("licenseId");
        String key = created.json().getString("licenseKey");

        List<Integer> sameUser = race(20, i -> apis.get(i % 2).acquireAs(product, key, "erin-" + i, "erin", "pc-" + i).status());
        assertEquals(3, sameUser.stream().filter(s -> s == 201).count(), "maxPerUser 3 across both nodes: " + sameUser);
        List<Integer> others = race(20, i -> apis.get(i % 2).acquireAs(product, key, "u-" + i, "user-" + i, "pc-" + i).status());
        assertEquals(3, others.stream().filter(s -> s == 201).count(), "seats + overdraft - held, exactly: " + others);
        assertEquals(6, Tables.leasesOf(id));
        assertEquals(2L, Tables.count("SELECT COUNT(*) FROM lease WHERE license_id = ? AND overdraft = TRUE", id));
    }

    private static List<Integer> race(int clients, java.util.function.IntFunction<Integer> request) throws Exception {
        return Races.atOnce(clients, request);
    }
}
