package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Deployments;
import dev.keyright.seats.testing.Nodes;
import jakarta.json.JsonObject;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command runs the embedded default (H2), so its locking is proven too, not only
 * MariaDB's: LastSeatRaceIT's race, and a checkout that cannot get the license lock in time is a fast 503
 * while renewals go on. One node on the embedded database with the test controls deployed.
 */
class EmbeddedConcurrencyIT {

    @TempDir
    static Path work;
    static Nodes.Node node;

    @BeforeAll
    static void start() throws Exception {
        File war = work.resolve("keyright-seats-test.war").toFile();
        Deployments.seats().as(ZipExporter.class).exportTo(war, true);
        node = Nodes.embedded(war, Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString(),
                "KEYRIGHT_ADMIN_PASSWORD", Api.ADMIN_PASSWORD, "KEYRIGHT_TRUSTED_PROXIES", "127.0.0.1"), work.resolve("node.log"));
        node.awaitReady(Duration.ofSeconds(240));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (node != null) {
            node.stop();
        }
    }

    @Test
    void fiftyInstallsRacingForTenSeatsGetExactlyTenOnTheEmbeddedDatabase() throws Exception {
        Api api = node.api();
        String product = "h2race-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject license = api.createLicense(product, 10, 120, 5);
        String key = license.getString("licenseKey");
        ExecutorService pool = Executors.newFixedThreadPool(50);
        List<Integer> statuses = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> replies = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                String install = "h2-" + i;
                replies.add(pool.submit(() -> {
                    go.await();
                    return api.acquire(product, key, install).status();
                }));
            }
            go.countDown();
            for (Future<Integer> reply : replies) {
                statuses.add(reply.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(10, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
        assertEquals(40, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        assertEquals(10, api.pool(product, key).json().getInt("inUse"));
    }

    @Test
    void aCheckoutThatCannotGetTheLicenseLockInTimeIsAFast503AndRenewalsGoOn() throws Exception {
        Api api = node.api();
        String product = "h2lock-" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject license = api.createLicense(product, 5, 120, 5);
        String key = license.getString("licenseKey");
        String held = api.acquire(product, key, "holder").json().getString("leaseId");
        CompletableFuture<Api.Reply> stuck = CompletableFuture.supplyAsync(() -> api.send("POST",
                "/test-support/license-lock/" + license.getString("licenseId") + "?millis=15000", null, Map.of()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!"true".equals(api.send("GET", "/test-support/license-lock/held", null, Map.of()).body())) {
            assertTrue(System.nanoTime() < deadline, "the lock is held");
            TimeUnit.MILLISECONDS.sleep(20);
        }
        long started = System.nanoTime();
        Api.Reply busy = api.acquire(product, key, "waiting");
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertEquals(503, busy.status(), busy.toString());
        assertEquals("https://keyright.dev/problems/service-unavailable", busy.json().getString("type"));
        assertEquals("1", busy.header("Retry-After"));
        assertTrue(waitedMillis < 12_000, "bounded by the embedded database's lock timeout, not the holder: " + waitedMillis + " ms");
        assertEquals(200, api.renew(key, held).status(), "heartbeats never queue behind checkouts");
        assertEquals("released", stuck.get(30, TimeUnit.SECONDS).body());
        assertEquals(201, api.acquire(product, key, "waiting").status(), "once the lock is free");
    }
}
