package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.activations.ActivationsIT;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Races;
import dev.keyright.seats.testing.Tables;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Offline use on two nodes sharing MariaDB: activation checkout is serialized per license across nodes like
 * seat checkout (the license row lock), and a borrowed seat lives in the database, not in a node: it still
 * counts after every node restarted, when an unborrowed seat of the same TTL is long gone.
 */
class OfflineUseOnTwoNodesIT extends OnTwoNodes {

    @Test
    void fiftyMachinesRacingThroughBothNodesForTenActivationsGetExactlyTen() throws Exception {
        List<Api> apis = apis();
        String product = "nl2-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject license = ActivationsIT.nodeLockedLicense(apis.get(0), product, 10, 30);
        String key = license.getString("licenseKey");
        String id = license.getString("licenseId");
        Map<Integer, Long> byStatus = Races.atOnce(50, i -> apis.get(i % 2).activate(product, key, ActivationsIT.fingerprint()).status())
                .stream().collect(Collectors.groupingBy(s -> s, Collectors.counting()));
        assertEquals(10L, byStatus.getOrDefault(201, 0L), "activated: " + byStatus);
        assertEquals(40L, byStatus.getOrDefault(409, 0L), "refused, never a 500: " + byStatus);
        assertEquals(10, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ? AND ended_at IS NULL", id));

        String machine = ActivationsIT.fingerprint();
        JsonObject other = ActivationsIT.nodeLockedLicense(apis.get(1), product + "-self", 3, 30);
        List<Api.Reply> self = Races.atOnce(20, i -> apis.get(i % 2).activate(product + "-self", other.getString("licenseKey"), machine));
        assertEquals(1, self.stream().filter(r -> r.status() == 201).count(), "one machine, one activation: " + self);
        assertEquals(19, self.stream().filter(r -> r.status() == 200).count());
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ?", other.getString("licenseId")));
    }

    @Test
    void aBorrowedSeatStillCountsAfterEveryNodeRestarted() throws Exception {
        List<Api> apis = apis();
        String product = "bor2-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject borrowing = apis.get(0).createLicense(Json.createObjectBuilder().add("product", product).add("seats", 1)
                .add("ttlSeconds", 2).add("skewSeconds", 1).add("maxBorrowHours", 1).build());
        JsonObject plain = apis.get(0).createLicense(product + "-plain", 1, 2, 1);
        String key = borrowing.getString("licenseKey");
        String leaseId = apis.get(0).acquire(product, key, "laptop-1").json().getString("leaseId");
        JsonObject borrowed = apis.get(1).borrow(key, leaseId, 1).json();
        apis.get(0).acquire(product + "-plain", plain.getString("licenseKey"), "desk-1");
        long stoppedAt = System.nanoTime();

        nodes.get(0).kill();
        nodes.get(1).kill();
        nodes.set(0, cluster.restart(nodes.get(0)));
        nodes.set(1, cluster.restart(nodes.get(1)));
        assertTrue(System.nanoTime() - stoppedAt > 3_000_000_000L, "longer than TTL + skew passed");

        List<Api> restarted = apis();
        assertEquals(201, restarted.get(0).acquire(product + "-plain", plain.getString("licenseKey"), "desk-2").status(),
                "the unborrowed seat of the same TTL expired");
        Api.Reply refused = restarted.get(1).acquire(product, key, "desk-2");
        assertEquals(409, refused.status(), "the borrowed seat still counts: " + refused);
        JsonObject holder = restarted.get(0).pool(product, key).json().getJsonArray("holders").getJsonObject(0);
        assertEquals(borrowed.getString("borrowedUntil"), holder.getString("borrowedUntil"));
        Api.Reply renewed = restarted.get(1).renew(key, leaseId);
        assertEquals(200, renewed.status(), renewed.toString());
        assertEquals(borrowed.getString("expiresAt"), renewed.json().getString("expiresAt"));
    }
}
