package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.GaleraCluster;
import dev.keyright.seats.testing.Nodes;
import dev.keyright.seats.testing.Races;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keyright on a three-node MariaDB Galera cluster, multi-primary: three Keyright nodes, each on its own Galera
 * node, every one of them taking writes. Galera's row locks are node-local, so the cap holds only because every
 * checkout also writes the license row and the second of two racing writers fails certification (or is
 * brute-force aborted), which the checkout retries like a deadlock. Bounded, loopback only.
 */
class GaleraClusterIT {

    private static final String ECLIPSELINK_STACK = "Local Exception Stack";
    private static final String ROLLBACK_LOGGED = "Internal Exception: java.sql.SQLTransactionRollbackException";

    private static final int SEATS = 10;

    static GaleraCluster galera;
    static Nodes keyright;
    static List<Nodes.Node> nodes;

    @BeforeAll
    static void startTheClusterAndOneKeyrightNodePerGaleraNode() throws Exception {
        galera = GaleraCluster.start("keyright_galera_" + UUID.randomUUID().toString().substring(0, 8));
        keyright = new Nodes(galera.jdbcUrls(), OnTwoNodes.NODE_SETTINGS);
        nodes = new ArrayList<>(keyright.startTogether(GaleraCluster.NODES));
    }

    @AfterAll
    static void stopEverything() {
        try {
            if (keyright != null) {
                keyright.close();
            }
        } finally {
            if (galera != null) {
                galera.close();
            }
        }
    }

    private static List<Api> apis() {
        return nodes.stream().map(Nodes.Node::api).toList();
    }

    private static JsonObject license(int seats) {
        return apis().get(0).createLicense("galera-" + UUID.randomUUID().toString().substring(0, 8), seats, 60, 1);
    }

    @Test
    void threeNodesFirstStartedTogetherOnThreeGaleraNodesMigratedOnceAndShareOneSigningKey() {
        Set<String> keySets = new HashSet<>();
        for (Api api : apis()) {
            keySets.add(api.send("GET", "/.well-known/jwks.json", null, Map.of()).body());
        }
        assertEquals(1, keySets.size(), "every node publishes the same key set: " + keySets);
        for (int n = 1; n <= GaleraCluster.NODES; n++) {
            assertEquals(1, galera.count(n, "SELECT COUNT(*) FROM signing_key"), "Galera node " + n);
            assertEquals(0, galera.count(n, "SELECT COUNT(*) FROM schema_history WHERE NOT success"), "no failed migration, Galera node " + n);
            assertEquals(galera.count(1, "SELECT COUNT(*) FROM schema_history"), galera.count(n, "SELECT COUNT(*) FROM schema_history"));
            assertEquals(0, galera.count(n, "SELECT COUNT(*) FROM migration_claim"), "the migration claim was given back");
        }
    }

    @Test
    void racingAcquiresThroughEveryNodeGrantExactlyTheSeats() throws Exception {
        long conflictsBefore = galera.conflicts();
        for (int round = 1; round <= 4; round++) {
            JsonObject license = license(SEATS);
            String product = license.getString("product");
            String key = license.getString("licenseKey");
            List<Integer> finals = Races.atOnce(45, i -> untilAnswered(apis().get(i % 3), api -> api.acquire(product, key, "racer-" + i)));
            assertEquals(SEATS, finals.stream().filter(status -> status == 201).count(), "round " + round + ": " + finals);
            assertEquals(45 - SEATS, finals.stream().filter(status -> status == 409).count(), "round " + round + ": " + finals);
            for (int n = 1; n <= GaleraCluster.NODES; n++) {
                assertEquals(SEATS, galera.count(n, "SELECT COUNT(*) FROM lease WHERE license_id = ?", license.getString("licenseId")),
                        "round " + round + ": Galera node " + n + " holds exactly the granted leases");
            }
        }
        System.out.println("[GaleraClusterIT] certification conflicts and brute-force aborts during the races: "
                + (galera.conflicts() - conflictsBefore));
    }

    @Test
    void aCheckoutThatKeepsLosingCertificationIsRetriedThenA503NeverA500NorALostGrant() throws Exception {
        JsonObject license = license(40);
        String product = license.getString("product");
        String key = license.getString("licenseKey");
        long conflictsBefore = galera.conflicts();
        // what this test provokes, not what the node logged before it (three nodes starting together race for the
        // signing key, and a loser's start-up may log its lost insert as the EJB container's system exception)
        int stacksBefore = nodes.get(0).logCount(ECLIPSELINK_STACK);
        int rollbacksBefore = nodes.get(0).logCount(ROLLBACK_LOGGED);
        AtomicBoolean hammering = new AtomicBoolean(true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // Another writer of the license row on Galera node 2, committing as fast as it can: every checkout on
            // node 1 that holds the row's (node-local) lock meanwhile is aborted when node 2's write set lands.
            Future<Integer> hammer = pool.submit(() -> {
                int writes = 0;
                try (Connection root = galera.connectAsRoot(2);
                     PreparedStatement touch = root.prepareStatement("UPDATE " + galeraDatabase()
                             + ".license SET checkouts = checkouts + 1 WHERE id = ?")) {
                    touch.setString(1, license.getString("licenseId"));
                    while (hammering.get()) {
                        try {
                            touch.executeUpdate();
                            writes++;
                        } catch (java.sql.SQLTransactionRollbackException abortedByACheckout) {
                            // the conflict cuts both ways: a checkout certified first aborts this write
                        }
                    }
                }
                return writes;
            });
            List<Api.Reply> replies = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                replies.add(apis().get(0).acquire(product, key, "contested-" + i));
            }
            hammering.set(false);
            assertTrue(hammer.get(30, TimeUnit.SECONDS) > 0);
            long granted = 0;
            for (Api.Reply reply : replies) {
                assertTrue(reply.status() == 201 || reply.status() == 503, "a grant or busy, never a 500: " + reply);
                if (reply.status() == 503) {
                    assertNotNull(reply.header("Retry-After"), "busy says when to retry: " + reply);
                    assertTrue(reply.contentType().startsWith("application/problem+json"), reply.toString());
                } else {
                    granted++;
                    String leaseId = reply.json().getString("leaseId");
                    for (int n = 1; n <= GaleraCluster.NODES; n++) {
                        assertEquals(1, galera.count(n, "SELECT COUNT(*) FROM lease WHERE id = ?", leaseId), "acknowledged lease on node " + n);
                    }
                }
            }
            for (int n = 1; n <= GaleraCluster.NODES; n++) {
                assertEquals(granted, galera.count(n, "SELECT COUNT(*) FROM lease WHERE license_id = ?", license.getString("licenseId")),
                        "exactly the acknowledged grants, nothing a 503 left behind, on node " + n);
            }
            long conflicts = galera.conflicts() - conflictsBefore;
            System.out.println("[GaleraClusterIT] under a competing writer: " + granted + " granted, " + (replies.size() - granted)
                    + " busy, " + conflicts + " certification conflicts and brute-force aborts");
            assertTrue(conflicts > 0, "the competing writer did conflict with the checkouts");
            // a conflict met by a checkout's statements is retried or answered busy without a stack trace in the
            // log, neither EclipseLink's nor the EJB container's (what the commit itself loses, Payara's transaction
            // manager reports: its message is the driver's, not EclipseLink's)
            assertEquals(stacksBefore, nodes.get(0).logCount(ECLIPSELINK_STACK), "EclipseLink logs no conflict it throws");
            assertEquals(rollbacksBefore, nodes.get(0).logCount(ROLLBACK_LOGGED),
                    "nor does the EJB container log one as a system exception");
        } finally {
            hammering.set(false);
            pool.shutdownNow();
        }
    }

    @Test
    void anIdempotentAcquireRetriedThroughEveryNodeIsOneLease() throws Exception {
        JsonObject license = license(SEATS);
        String product = license.getString("product");
        String key = license.getString("licenseKey");
        for (int round = 0; round < 5; round++) {
            String idempotencyKey = UUID.randomUUID().toString();
            String install = "retrying-" + round;
            Map<String, String> headers = Map.of("Idempotency-Key", idempotencyKey);
            List<Api.Reply> together = Races.atOnce(3, i -> untilServed(apis().get(i), api -> api.acquire(product, key, install, headers)));
            Set<String> leaseIds = new HashSet<>();
            for (Api.Reply reply : together) {
                assertTrue(reply.status() == 201 || reply.status() == 200, reply.toString());
                leaseIds.add(reply.json().getString("leaseId"));
            }
            for (Api api : apis()) { // and once more through each node, one after the other: the stored answer
                Api.Reply again = untilServed(api, a -> a.acquire(product, key, install, headers));
                leaseIds.add(again.json().getString("leaseId"));
            }
            assertEquals(1, leaseIds.size(), "round " + round + ": one lease " + leaseIds);
            for (int n = 1; n <= GaleraCluster.NODES; n++) {
                assertEquals(1, galera.count(n, "SELECT COUNT(*) FROM lease WHERE license_id = ? AND client_instance_id = ?",
                        license.getString("licenseId"), install), "round " + round + ", Galera node " + n);
            }
        }
    }

    @Test
    void aGaleraNodeKilledUnderLoadLosesNoAcknowledgedLeaseGrantsNothingExtraAndServesAgainAfterRejoining() throws Exception {
        JsonObject license = license(12);
        String licenseId = license.getString("licenseId");
        JsonObject other = license(5);
        Clients clients = new Clients(apis(), license.getString("product"), license.getString("licenseKey"));
        List<String> acknowledged = new ArrayList<>();
        List<String> acknowledgedElsewhere = new ArrayList<>();
        for (int i = 0; i < 6; i++) { // two held through each Keyright node, so through each Galera node
            String install = "long-" + i;
            Api.Reply reply = untilServed(apis().get(i % 3), api -> api.acquire(clients.product, clients.key, install));
            assertEquals(201, reply.status(), reply.toString());
            acknowledged.add(Clients.leaseId(reply));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        boolean killed = false;
        try {
            List<Future<?>> churning = clients.startChurning(pool, 12, deadline);
            galera.kill(3);
            killed = true;
            long killedAt = System.nanoTime();

            Api.Reply orphaned = apis().get(2).acquire(other.getString("product"), other.getString("licenseKey"), "on-the-orphaned-node");
            assertEquals(503, orphaned.status(), "the Keyright node whose Galera node died: " + orphaned);
            assertNotNull(orphaned.header("Retry-After"));
            for (int i = 0; i < 2; i++) { // acknowledged while Galera node 3 is down
                String install = "during-" + i;
                Api.Reply reply = untilServed(apis().get(i), api -> api.acquire(other.getString("product"), other.getString("licenseKey"), install));
                assertEquals(201, reply.status(), reply.toString());
                acknowledgedElsewhere.add(Clients.leaseId(reply));
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
            for (Future<?> churn : churning) {
                churn.get();
            }
            assertTrue(clients.lastSuccessNanos.get() > killedAt, "the clients went on through the other nodes");
            assertTrue(clients.history.size() > 10, "the load ran: " + clients.history.size());
            assertTrue(clients.history.maxOverlap() <= 6, "no oversell: " + clients.history.maxOverlap()
                    + " churn holds overlapped, 6 seats were free for them");
            assertEquals(0, clients.count(500), "no server faults: " + clients.statuses);
            assertEquals(0, clients.unavailableWithoutRetryAfter.get(), "every 503 said when to retry: " + clients.statuses);
            for (String leaseId : acknowledged) {
                assertEquals(200, untilServed(apis().get(0), api -> api.renew(clients.key, leaseId)).status(),
                        "an acknowledged lease lives on, whichever Galera node took it");
            }
            for (String leaseId : acknowledgedElsewhere) {
                assertEquals(200, untilServed(apis().get(1), api -> api.renew(other.getString("licenseKey"), leaseId)).status());
            }

            galera.rejoin(3);
            killed = false;
            Api.Reply served = null;
            long rejoinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < rejoinDeadline) {
                served = apis().get(2).acquire(other.getString("product"), other.getString("licenseKey"), "after-rejoin");
                if (served.status() == 201) {
                    break;
                }
                assertEquals(503, served.status(), served.toString());
                TimeUnit.MILLISECONDS.sleep(250);
            }
            assertNotNull(served);
            assertEquals(201, served.status(), "the Keyright node on the rejoined Galera node serves again: " + served);
            acknowledged.add(Clients.leaseId(served));
            acknowledged.addAll(acknowledgedElsewhere);
            for (int n = 1; n <= GaleraCluster.NODES; n++) {
                for (String leaseId : acknowledged) {
                    assertEquals(1, galera.count(n, "SELECT COUNT(*) FROM lease WHERE id = ?", leaseId),
                            "acknowledged lease " + leaseId + " on Galera node " + n);
                }
                assertTrue(galera.count(n, "SELECT COUNT(*) FROM lease WHERE license_id = ?", licenseId) <= 12,
                        "never more leases than seats, on Galera node " + n);
            }
            long grants = galera.count(1, "SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'GRANT'", licenseId);
            assertEquals(grants, galera.count(3, "SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'GRANT'", licenseId),
                    "the rejoined node has the same history");
        } finally {
            pool.shutdownNow();
            if (killed) {
                galera.rejoin(3);
            }
        }
    }

    /** Sends until the answer is not a 503 (a client honouring Retry-After, shortened here); returns its status. */
    private static int untilAnswered(Api api, java.util.function.Function<Api, Api.Reply> call) {
        return untilServed(api, call).status();
    }

    /** Sends until the answer is not a 503, at most 40 times; a 503 must carry Retry-After. */
    private static Api.Reply untilServed(Api api, java.util.function.Function<Api, Api.Reply> call) {
        Api.Reply reply = null;
        for (int attempt = 0; attempt < 40; attempt++) {
            reply = call.apply(api);
            if (reply.status() != 503) {
                return reply;
            }
            assertNotNull(reply.header("Retry-After"), reply.toString());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100 + 50L * attempt));
        }
        return reply;
    }

    private static String galeraDatabase() {
        String url = galera.jdbcUrl(1);
        return url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
    }
}
