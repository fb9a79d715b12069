package dev.keyright.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.json.JsonUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code keyright-client admin ...} against a fake admin API that answers as the server does and records what it was asked. */
class AdminCommandTest {

    private static final String LICENSE = "{\"licenseId\":\"lic_1\",\"product\":\"acme-cad\",\"seats\":25,\"status\":\"active\","
            + "\"customer\":\"Acme\",\"pool\":{\"inUse\":2,\"max\":25,\"queued\":1,"
            + "\"holders\":[{\"leaseId\":\"lease_a\",\"user\":\"alice\",\"host\":\"ws-7\",\"clientInstanceId\":\"inst-a\","
            + "\"acquiredAt\":\"2026-12-04T06:00:00Z\",\"expiresAt\":\"2026-12-04T06:02:00Z\"},"
            + "{\"leaseId\":\"lease_b\",\"user\":null,\"host\":null,\"clientInstanceId\":\"inst-b\","
            + "\"acquiredAt\":\"2026-12-04T06:01:00Z\",\"expiresAt\":\"2026-12-04T06:03:00Z\",\"overdraft\":true}],"
            + "\"waiting\":[{\"user\":\"carol\",\"host\":\"ws-9\",\"clientInstanceId\":\"inst-c\",\"since\":\"2026-12-04T06:01:30Z\",\"position\":1}]}}";
    private static final String SUSPENDED = "{\"licenseId\":\"lic_2\",\"product\":\"acme-render\",\"seats\":4,\"status\":\"suspended\","
            + "\"customer\":null,\"pool\":{\"inUse\":0,\"max\":4,\"queued\":0,\"holders\":[],\"waiting\":[]}}";
    private static final String USAGE = "{\"licenseId\":\"lic_1\",\"product\":\"acme-cad\",\"bucket\":\"day\",\"from\":\"2026-12-01T00:00:00Z\","
            + "\"to\":\"2026-12-03T00:00:00Z\",\"maxSeats\":25,\"overdraftSeats\":0,\"buckets\":["
            + "{\"start\":\"2026-12-01T00:00:00Z\",\"peakInUse\":23,\"peakOverdraft\":0,\"acquisitions\":140,\"denials\":3,\"expiries\":2,\"releases\":130,\"revocations\":1},"
            + "{\"start\":\"2026-12-02T00:00:00Z\",\"peakInUse\":25,\"peakOverdraft\":0,\"acquisitions\":151,\"denials\":9,\"expiries\":0,\"releases\":150,\"revocations\":0}]}";

    private HttpServer server;
    private final List<String> asked = new ArrayList<>();
    private final List<String> credentials = new ArrayList<>();
    private final Map<String, String> environment = new HashMap<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            asked.add(request);
            credentials.add(exchange.getRequestHeaders().getFirst("Authorization"));
            String expected = "Basic " + Base64.getEncoder().encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8));
            int status;
            String body;
            if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                status = 401;
                body = "{\"type\":\"https://keyright.dev/problems/unauthorized\",\"status\":401,\"detail\":\"Admin credentials required.\"}";
            } else if (request.equals("GET /v1/admin/licenses")) {
                status = 200;
                body = "{\"licenses\":[" + LICENSE + "," + SUSPENDED + "]}";
            } else if (request.equals("GET /v1/admin/licenses/lic_1")) {
                status = 200;
                body = LICENSE;
            } else if (request.startsWith("GET /v1/admin/licenses/lic_1/usage")) {
                status = 200;
                body = USAGE;
            } else if (request.startsWith("DELETE /v1/admin/licenses/lic_1/leases/lease_a")) {
                status = 204;
                body = "";
            } else {
                status = 404;
                body = "{\"type\":\"https://keyright.dev/problems/license-not-found\",\"status\":404,\"detail\":\"No such license.\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", status / 100 == 2 ? "application/json" : "application/problem+json");
            exchange.sendResponseHeaders(status, status == 204 ? -1 : bytes.length);
            if (status != 204) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
        environment.put("KEYRIGHT_SERVER", "http://127.0.0.1:" + server.getAddress().getPort() + "/");
        environment.put("KEYRIGHT_ADMIN_USER", "ops");
        environment.put("KEYRIGHT_ADMIN_PASSWORD", "s3cret");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private int cli(String... args) {
        return new Main(environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void statusShowsEveryLicenseWithItsHoldersLikeLmstat() {
        assertEquals(0, cli("admin", "status"));
        String text = out();
        assertTrue(text.contains("acme-cad (lic_1): 2 of 25 seats in use, 1 waiting\n"), text);
        assertTrue(text.contains("    alice@ws-7  since 2026-12-04T06:00:00Z  until 2026-12-04T06:02:00Z  lease_a  install inst-a\n"), text);
        assertTrue(text.contains("    (unnamed)  since 2026-12-04T06:01:00Z  until 2026-12-04T06:03:00Z  lease_b  install inst-b  (overdraft)\n"), text);
        assertTrue(text.contains("acme-render (lic_2): 0 of 4 seats in use (SUSPENDED)\n"), text);
        assertEquals(List.of("GET /v1/admin/licenses"), asked);
        assertEquals("Basic " + Base64.getEncoder().encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8)), credentials.get(0));
    }

    @Test
    void licensesIsOneLinePerLicense() {
        assertEquals(0, cli("admin", "licenses"));
        String[] lines = out().split("\n");
        assertEquals("LICENSE  PRODUCT      IN USE  SEATS  QUEUED  STATUS     CUSTOMER", lines[0]);
        assertEquals("lic_1    acme-cad     2       25     1       active     Acme", lines[1]);
        assertEquals("lic_2    acme-render  0       4      0       suspended", lines[2]);
    }

    @Test
    void poolShowsHoldersAndTheQueue() {
        assertEquals(0, cli("admin", "pool", "lic_1"));
        assertTrue(out().contains("  waiting:\n    1. carol@ws-9  since 2026-12-04T06:01:30Z  install inst-c\n"), out());
        assertEquals(List.of("GET /v1/admin/licenses/lic_1"), asked);
    }

    @Test
    void revokeFreesTheSeatAndCanBlockTheInstall() throws Exception {
        assertEquals(0, cli("admin", "revoke", "lic_1", "lease_a"));
        assertEquals("Revoked lease_a of lic_1; the seat is free.\n", out());
        out.reset();
        assertEquals(0, cli("admin", "revoke", "lic_1", "lease_a", "--block", "1h", "--json"));
        assertEquals(Map.of("revoked", "lease_a", "licenseId", "lic_1", "blockSeconds", 3600L), JsonUtil.parseJson(out().trim()));
        assertEquals(List.of("DELETE /v1/admin/licenses/lic_1/leases/lease_a", "DELETE /v1/admin/licenses/lic_1/leases/lease_a?blockSeconds=3600"), asked);
    }

    @Test
    void usageIsATablePerBucketAndJsonIsTheServersOwn() throws Exception {
        assertEquals(0, cli("admin", "usage", "lic_1", "--from", "2026-12-01T00:00:00Z", "--to", "2026-12-03T00:00:00Z", "--bucket", "day"));
        assertEquals(List.of("GET /v1/admin/licenses/lic_1/usage?from=2026-12-01T00%3A00%3A00Z&to=2026-12-03T00%3A00%3A00Z&bucket=day"), asked);
        String[] lines = out().split("\n");
        assertEquals("acme-cad (lic_1), 25 seats, per day from 2026-12-01T00:00:00Z to 2026-12-03T00:00:00Z", lines[0]);
        assertEquals("START                 PEAK  OVERDRAFT  ACQUIRED  DENIED  EXPIRED  RELEASED  REVOKED", lines[1]);
        assertEquals("2026-12-02T00:00:00Z  25    0          151       9       0        150       0", lines[3]);
        out.reset();
        assertEquals(0, cli("admin", "usage", "lic_1", "--json"));
        assertEquals(JsonUtil.parseJson(USAGE), JsonUtil.parseJson(out().trim()));
    }

    @Test
    void refusedCredentialsAndUnknownLicensesAreSaidWithTheirExitCodes() {
        environment.put("KEYRIGHT_ADMIN_PASSWORD", "wrong");
        assertEquals(77, cli("admin", "status"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("the admin credentials were refused (401): Admin credentials required."), err.toString());
        environment.put("KEYRIGHT_ADMIN_PASSWORD", "s3cret");
        assertEquals(1, cli("admin", "pool", "lic_nope"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not found (404): No such license."), err.toString());
        assertFalse(out().contains("lic_nope"));
    }

    @Test
    void badUsageIsRefusedBeforeAnythingIsSent() {
        environment.remove("KEYRIGHT_ADMIN_PASSWORD");
        assertEquals(2, cli("admin"));
        assertEquals(2, cli("admin", "pool"));
        assertEquals(2, cli("admin", "revoke", "lic_1"));
        assertEquals(2, cli("admin", "frobnicate"));
        assertEquals(2, cli("pool", "--block", "1h"), "--block is for admin revoke");
        assertEquals(2, cli("admin", "status"), "no password and no terminal");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("KEYRIGHT_ADMIN_PASSWORD"), err.toString());
        assertEquals(List.of(), asked);
    }
}
