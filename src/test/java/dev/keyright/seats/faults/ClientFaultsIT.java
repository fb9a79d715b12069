package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Nodes;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two nodes and their clients: racing checkouts through both, one signing key for both, and clients
 * killed while holding a seat or in the middle of an acquire. Bounded, loopback only.
 */
class ClientFaultsIT extends OnTwoNodes {

    @Test
    void twoNodesRacingGrantExactlyMinOfClientsAndSeats() throws Exception {
        JsonObject license = license(10, 60, 1);
        String product = license.getString("product");
        String key = license.getString("licenseKey");
        List<Api> apis = apis();
        ExecutorService pool = Executors.newFixedThreadPool(40);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Api node = apis.get(i % 2);
                String install = "racer-" + i;
                results.add(pool.submit(() -> {
                    start.await();
                    return node.acquire(product, key, install).status();
                }));
            }
            start.countDown();
            int granted = 0;
            for (Future<Integer> result : results) {
                int status = result.get(60, TimeUnit.SECONDS);
                assertTrue(status == 201 || status == 409 || status == 503, "status " + status);
                granted += status == 201 ? 1 : 0;
            }
            assertEquals(10, granted, "exactly min(40 clients, 10 seats)");
            assertEquals(10, Tables.leasesOf(license.getString("licenseId")));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyNodeSignsWithTheOneSharedKey() throws Exception {
        String jwksA = apis().get(0).send("GET", "/.well-known/jwks.json", null, Map.of()).body();
        String jwksB = apis().get(1).send("GET", "/.well-known/jwks.json", null, Map.of()).body();
        assertEquals(jwksA, jwksB, "one key, created once, found by every node");
        JsonObject license = license(2, 60, 1);
        String token = apis().get(0).acquire(license.getString("product"), license.getString("licenseKey"), "signed-by-a")
                .json().getString("token");
        org.jose4j.jwt.consumer.JwtConsumer consumer = new org.jose4j.jwt.consumer.JwtConsumerBuilder()
                .setVerificationKeyResolver(new org.jose4j.keys.resolvers.JwksVerificationKeyResolver(
                        new org.jose4j.jwk.JsonWebKeySet(jwksB).getJsonWebKeys()))
                .setExpectedAudience(license.getString("product"))
                .setJwsAlgorithmConstraints(org.jose4j.jwa.AlgorithmConstraints.ConstraintType.PERMIT, "ES256")
                .build();
        assertEquals("signed-by-a", consumer.processToClaims(token).getStringClaimValue("cid"),
                "a token from node A verifies with node B's keys");
    }

    @Test
    void aClientKilledWithSigkillWhileHoldingFreesItsSeatWithinTtlPlusSkew() throws Exception {
        JsonObject license = license(1, 2, 1);
        java.nio.file.Path home = java.nio.file.Files.createTempDirectory("keyright-cli");
        java.nio.file.Path marker = home.resolve("started");
        java.io.File jar = dev.keyright.seats.testing.CliJar.path();
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-jar", jar.getPath(),
                "run", "--", "sh", "-c", "touch " + marker + "; sleep 60").redirectErrorStream(true)
                .redirectOutput(home.resolve("cli.log").toFile());
        builder.environment().put("KEYRIGHT_SERVER", "http://127.0.0.1:" + nodes.get(1).port());
        builder.environment().put("KEYRIGHT_PRODUCT", license.getString("product"));
        builder.environment().put("KEYRIGHT_LICENSE_KEY", license.getString("licenseKey"));
        builder.environment().put("HOME", home.toString());
        Process cli = builder.start();
        long limit = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!java.nio.file.Files.exists(marker) && System.nanoTime() < limit) {
            Thread.sleep(50);
        }
        assertTrue(java.nio.file.Files.exists(marker), "the command started under a seat");
        List<ProcessHandle> children = cli.descendants().toList();
        cli.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        long killedAt = System.nanoTime();
        Api api = apis().get(0);
        while (api.pool(license.getString("product"), license.getString("licenseKey")).json().getInt("inUse") > 0
                && System.nanoTime() - killedAt < TimeUnit.SECONDS.toNanos(20)) {
            Thread.sleep(100);
        }
        long freedMillis = (System.nanoTime() - killedAt) / 1_000_000;
        // TTL 2 s (+ up to 1 s rounding to a whole second) + skew 1 s, plus a little for the last heartbeat in flight.
        assertTrue(freedMillis <= 5_000, "the seat came back " + freedMillis + " ms after the kill");
        while (Tables.leasesOf(license.getString("licenseId")) > 0 && System.nanoTime() - killedAt < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(100);
        }
        long reapedMillis = (System.nanoTime() - killedAt) / 1_000_000;
        assertTrue(reapedMillis <= 10_000, "and the row was swept " + reapedMillis + " ms after (grace 2 s, sweep every 1 s)");
    }

    @Test
    void aClientKilledMidAcquireAndRetryingWithItsKeyGetsAtMostOneSeat() throws Exception {
        JsonObject license = license(3, 30, 1);
        String product = license.getString("product");
        String key = license.getString("licenseKey");
        String body = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"crashy\"}";
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", nodes.get(0).port())) {
            socket.getOutputStream().write(("POST /v1/seats/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Idempotency-Key: crash-1\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
        } // the client dies before reading anything
        String licenseId = license.getString("licenseId");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", licenseId) == 0) {
            assertTrue(System.nanoTime() < deadline, "the server finishes the dead client's acquire and stores its answer");
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        Api.Reply retry = apis().get(1).send("POST", "/v1/seats/acquire", body,
                Map.of("Content-Type", "application/json", "Idempotency-Key", "crash-1"));
        assertEquals(201, retry.status(), "the retry on the other node is the stored 201, not a returning install's 200: " + retry);
        assertEquals("true", retry.header("Idempotent-Replayed"), retry.toString());
        Api.Reply again = apis().get(0).send("POST", "/v1/seats/acquire", body,
                Map.of("Content-Type", "application/json", "Idempotency-Key", "crash-1"));
        assertEquals(201, again.status(), again.toString());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(retry.body(), again.body(), "byte for byte: a fresh answer would carry a new token");
        assertEquals(retry.header("Location"), again.header("Location"));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease WHERE license_id = ?", licenseId));
    }
}
