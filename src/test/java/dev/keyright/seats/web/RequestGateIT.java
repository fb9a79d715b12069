package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.RawHttp;
import dev.keyright.seats.testing.Tables;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request paths are canonical or refused (docs/API.md): every other spelling of every route family's
 * path is a 400, 401 or 404 problem that changes nothing, and the guards (admin credentials, key
 * guessing, Idempotency-Key, security headers) hold whatever spelling is tried. Also what a stranger
 * can learn: no route list, no WADL, no server banner.
 */
class RequestGateIT extends OnTheServer {

    private static final String BASIC = "Basic " + Base64.getEncoder()
            .encodeToString((Api.ADMIN_USER + ":" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));

    private static final java.util.regex.Pattern UNDECODABLE = java.util.regex.Pattern.compile("\\\\|%5C|%00");

    @BeforeEach
    void markTheServerLog() {
        api().markServerLog();
    }

    @AfterEach
    void nothingWasLoggedAtWarningOrAbove() {
        List<String> warnings = api().serverWarnings().stream().filter(record -> !isContainerDefectRecord(record)).toList();
        assertEquals(List.of(), warnings, "a client's bad input never logs a warning or a stack trace");
    }

    /** One route of a family, with what it needs to succeed when spelled canonically. */
    private record Route(String family, String method, String path, Map<String, String> headers, String body) {
    }

    @Test
    void everyOtherSpellingOfEveryRouteIsRefusedAndChangesNothing() {
        Api api = api();
        String product = uniqueProduct("paths");
        JsonObject license = api.createLicense(product, 50, 120, 5);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        String leaseId = api.acquire(product, key, "inst-holder").json().getString("leaseId");
        Map<String, String> client = Map.of("Authorization", "License " + key);
        Map<String, String> json = Map.of("Content-Type", "application/json");
        String acquire = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"inst-variant\"}";
        List<Route> routes = List.of(
                new Route("admin", "GET", "/v1/admin/licenses", Map.of(), null),
                new Route("admin", "GET", "/v1/admin/licenses/" + licenseId, Map.of(), null),
                new Route("admin", "POST", "/v1/admin/licenses", json, "{\"product\":\"" + product + "-x\",\"seats\":3}"),
                new Route("admin", "PATCH", "/v1/admin/licenses/" + licenseId, json, "{\"status\":\"suspended\"}"),
                new Route("admin", "DELETE", "/v1/admin/licenses/" + licenseId + "/leases/" + leaseId, Map.of(), null),
                new Route("usage", "GET", "/v1/admin/licenses/" + licenseId + "/usage", Map.of(), null),
                new Route("admin-page", "GET", "/admin/", Map.of(), null),
                new Route("admin-page", "GET", "/admin/admin.js", Map.of(), null),
                new Route("seats", "POST", "/v1/seats/acquire", json, acquire),
                new Route("seats", "POST", "/v1/seats/" + leaseId + "/renew", client, null),
                new Route("seats", "POST", "/v1/seats/" + leaseId + "/release", client, null),
                new Route("seats", "GET", "/v1/seats/" + leaseId, client, null),
                new Route("pool", "GET", "/v1/seats/pool?product=" + product, client, null),
                new Route("health", "GET", "/v1/health", Map.of(), null),
                new Route("jwks", "GET", "/.well-known/jwks.json", Map.of(), null));
        RawHttp http = new RawHttp(base);
        String before = Tables.snapshot();
        List<String> failures = new ArrayList<>();
        int tried = 0;
        Map<String, Integer> variantsPerFamily = new HashMap<>();
        for (Route route : routes) {
            List<String> variants = PathVariants.of(route.path());
            variantsPerFamily.merge(route.family(), variants.size(), Integer::sum);
            boolean admin = route.family().startsWith("admin") || route.family().equals("usage");
            for (String variant : variants) {
                for (boolean withCredentials : admin ? List.of(false, true) : List.of(false)) {
                    Map<String, String> headers = new HashMap<>(route.headers());
                    if (withCredentials) {
                        headers.put("Authorization", BASIC);
                    }
                    RawHttp.Reply reply = http.send(route.method(), variant, headers, route.body());
                    tried++;
                    String problem = refusal(variant, reply);
                    if (problem != null) {
                        failures.add(route.method() + " " + variant + (withCredentials ? " (admin)" : "") + ": " + problem);
                    }
                }
            }
        }
        variantsPerFamily.forEach((family, count) -> assertTrue(count >= 40, family + ": only " + count + " variants"));
        assertEquals(List.of(), failures, "of " + tried + " requests");
        assertEquals(before, Tables.snapshot(), "no other spelling of a path changed anything");
        assertEquals(200, api.renew(key, leaseId).status(), "the lease the variants tried to revoke and release is live");
        assertEquals("active", api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json().getString("status"));
    }

    /**
     * Null when the reply is a refusal as the contract says; otherwise what is wrong with it. A target the
     * container cannot decode at all (a backslash, an encoded NUL) it refuses itself, before any
     * application code, with a bare 400: the only refusal that is not a problem document (docs/API.md).
     */
    private static String refusal(String target, RawHttp.Reply reply) {
        if (!Set.of(400, 401, 404).contains(reply.status()) && !containerDefect(target, reply)) {
            return "status " + reply;
        }
        if (UNDECODABLE.matcher(target).find() && reply.status() == 400 && reply.body().isEmpty()) {
            return reply.header("Server") == null ? null : "server banner " + reply;
        }
        if (containerDefect(target, reply)) {
            return null;
        }
        if (reply.status() == 400 && !reply.body().contains("\"type\":\"https://keyright.dev/problems/invalid-path\"")) {
            return "a 400 that is not invalid-path: " + reply;
        }
        return headersOf(reply);
    }

    /**
     * Payara 6.2025.10's URI normaliser (Grizzly's HttpRequestURIDecoder.normalizeBytes) overruns its
     * buffer on some targets that end in a dot segment, depending on the request line's length: the
     * container logs AS-WEB-CORE-00037 and leaves an empty 200 before any application code runs (the
     * same defect as payara/Payara#8000). Nothing is routed, nothing changes (the snapshot proves it);
     * the answer carries none of the application's headers because the application never saw it.
     */
    private static boolean containerDefect(String target, RawHttp.Reply reply) {
        String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
        return (path.endsWith("/.") || path.endsWith("/..")) && reply.status() == 200 && reply.body().isEmpty()
                && reply.header("Server") == null && reply.header("X-Content-Type-Options") == null;
    }

    /** The container's own record of that defect, the one record a request can cause that is not the application's. */
    static boolean isContainerDefectRecord(String record) {
        return record.startsWith("SEVERE jakarta.enterprise.web.core:")
                && record.contains("[java.lang.ArrayIndexOutOfBoundsException")
                && record.contains(" at org.glassfish.grizzly.http.util.HttpRequestURIDecoder.normalizeBytes]");
    }

    private static String headersOf(RawHttp.Reply reply) {
        String type = String.valueOf(reply.header("Content-Type"));
        if (!type.startsWith("application/problem+json")) {
            return "content type " + reply;
        }
        JsonObject problem = Json.createReader(new StringReader(reply.body())).readObject();
        if (problem.getInt("status") != reply.status()) {
            return "inconsistent problem " + reply;
        }
        if (!"nosniff".equals(reply.header("X-Content-Type-Options")) || !"no-store".equals(reply.header("Cache-Control"))
                || !"DENY".equals(reply.header("X-Frame-Options"))) {
            return "security headers missing " + reply;
        }
        if (String.valueOf(reply.header("Server")).contains("Payara") || reply.header("X-Powered-By") != null) {
            return "server banner " + reply;
        }
        return null;
    }

    /**
     * A password is checked only where the admin's authentication runs (the admin paths as the container maps them);
     * another spelling is refused before it, so a guess sent there is never checked, learns nothing and costs no hashing.
     * Guesses on the admin paths count, and the address they came from then gets nothing on any spelling.
     */
    @Test
    void wrongAdminPasswordsCountWhereTheyAreCheckedAndALockedOutAddressGetsNothingOnAnySpelling() {
        RawHttp http = new RawHttp(base);
        String address = "203.0.113.2" + (int) (Math.random() * 9);
        String wrong = "Basic " + Base64.getEncoder().encodeToString("admin:wrong-password".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 20; i++) {
            RawHttp.Reply reply = http.send("GET", "/v1;/admin/licenses", Map.of("Authorization", wrong, "X-Forwarded-For", address), null);
            assertEquals(400, reply.status(), "attempt " + i + ": " + reply);
        }
        assertEquals(200, http.send("GET", "/v1/admin/licenses", Map.of("Authorization", BASIC, "X-Forwarded-For", address), null).status(),
                "passwords never checked count for nothing");
        for (int i = 0; i < 20; i++) {
            RawHttp.Reply reply = http.send("GET", "/v1/admin/licenses", Map.of("Authorization", wrong, "X-Forwarded-For", address), null);
            assertTrue(Set.of(401, 429).contains(reply.status()), "attempt " + i + ": " + reply);
        }
        RawHttp.Reply locked = http.send("GET", "/v1/admin/licenses", Map.of("Authorization", BASIC, "X-Forwarded-For", address), null);
        assertEquals(429, locked.status(), "the wrong passwords were counted: " + locked);
        assertEquals(400, http.send("GET", "/v1;/admin/licenses", Map.of("Authorization", BASIC, "X-Forwarded-For", address), null).status(),
                "another spelling opens nothing");
        assertEquals(200, http.send("GET", "/v1/admin/licenses", Map.of("Authorization", BASIC), null).status(), "others go on");
    }

    @Test
    void anAddressLockedOutForWrongKeysGetsNothingThroughAnotherSpelling() {
        Api api = api();
        RawHttp http = new RawHttp(base);
        String product = uniqueProduct("locked");
        String key = api.createLicense(product, 5, 120, 5).getString("licenseKey");
        String address = "203.0.113.2" + (int) (Math.random() * 9);
        Map<String, String> headers = Map.of("Content-Type", "application/json", "X-Forwarded-For", address);
        String wrongKey = "{\"product\":\"" + product + "\",\"licenseKey\":\"WRONG-KEY\",\"clientInstanceId\":\"inst-l\"}";
        String rightKey = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"inst-l\"}";
        int refused = 0;
        for (int i = 0; i < 22; i++) {
            refused += http.send("POST", "/v1/seats/acquire", headers, wrongKey).status() == 429 ? 1 : 0;
        }
        assertTrue(refused >= 1, "the address is locked out");
        for (String variant : List.of("/v1/seats/acquire;x", "/v1;/seats/acquire", "/v1/seats/%61cquire", "/v1//seats/acquire")) {
            RawHttp.Reply reply = http.send("POST", variant, headers, rightKey);
            assertEquals(400, reply.status(), variant + ": " + reply);
        }
        assertEquals(429, http.send("POST", "/v1/seats/acquire", headers, rightKey).status(), "still locked out");
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM lease l JOIN license c ON c.id = l.license_id WHERE c.product = ?", product));
    }

    @Test
    void oneIdempotencyKeyNeverGrantsTwoBodiesWhateverThePathSpelling() {
        Api api = api();
        RawHttp http = new RawHttp(base);
        String product = uniqueProduct("idem-path");
        String key = api.createLicense(product, 5, 120, 5).getString("licenseKey");
        Map<String, String> headers = Map.of("Content-Type", "application/json", "Idempotency-Key", "one-key");
        String first = "{\"product\":\"" + product + "\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"inst-1\"}";
        String second = first.replace("inst-1", "inst-2");
        assertEquals(201, http.send("POST", "/v1/seats/acquire", headers, first).status());
        for (String variant : List.of("/v1/seats/acquire;x", "/v1/seats;/acquire", "/v1/seats/acquire/", "/v1/seats/./acquire")) {
            assertEquals(400, http.send("POST", variant, headers, second).status(), variant);
        }
        RawHttp.Reply reused = http.send("POST", "/v1/seats/acquire", headers, second);
        assertEquals(422, reused.status(), reused.toString());
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease l JOIN license c ON c.id = l.license_id WHERE c.product = ?", product));
    }

    @Test
    void strangersLearnNoRoutesNoVersionsAndNoServerName() {
        RawHttp http = new RawHttp(base);
        for (String path : List.of("/", "/v1/seats/acquire", "/v1/admin/licenses", "/.well-known/jwks.json", "/admin/")) {
            RawHttp.Reply options = http.send("OPTIONS", path, Map.of(), null);
            int expected = path.contains("admin") ? 401 : 405; // the admin's authentication runs before the request gate
            assertEquals(expected, options.status(), "OPTIONS " + path + ": " + options);
            assertEquals(null, headersOf(options), "OPTIONS " + path);
            assertFalse(options.body().contains("wadl") || options.body().contains("Jersey"), options.toString());
        }
        for (String path : List.of("/application.wadl", "/application.wadl?detail=true", "/v1/application.wadl")) {
            RawHttp.Reply wadl = http.send("GET", path, Map.of(), null);
            assertEquals(404, wadl.status(), path + ": " + wadl);
            assertEquals(null, headersOf(wadl), path);
        }
        for (String path : List.of("/openapi", "/metrics", "/metrics/application", "/metrics/base")) {
            RawHttp.Reply payara = http.send("GET", path, Map.of(), null);
            assertEquals(404, payara.status(), "Payara's " + path + " is not served (server-config/hardening.asadmin): " + payara);
            assertEquals(null, headersOf(payara), path);
        }
        RawHttp.Reply undecodable = http.send("GET", "/v1/%00", Map.of(), null);
        assertEquals(400, undecodable.status(), undecodable.toString());
        assertEquals(null, undecodable.header("Server"), "no banner on the container's own answers either");
        assertEquals("0", api().send("GET", "/test-support/threads/hazelcast", null, Map.of()).body(),
                "no Hazelcast in the server (--nohazelcast): nothing listens beside HTTP");
        RawHttp.Reply trace = http.send("TRACE", "/v1/seats/pool", Map.of("Authorization", "License SECRET-KEY"), null);
        assertEquals(405, trace.status(), trace.toString());
        assertFalse(trace.body().contains("SECRET-KEY"), "TRACE never echoes the request");
        assertEquals(null, headersOf(trace), "TRACE is refused by the application, with its headers");
    }

    @Test
    void aBodySentSlowlyIsA408AtItsDeadlineFreesItsThreadAndOthersAreServedMeanwhile() throws Exception {
        Api api = api();
        String product = uniqueProduct("slow");
        String key = api.createLicense(product, 5, 120, 5).getString("licenseKey");
        int clients = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        try {
            List<java.util.concurrent.Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                boolean stalled = i % 2 == 0; // half send a byte every 500 ms, half send nothing after the headers
                answers.add(pool.submit(() -> slowClient(stalled)));
            }
            Thread.sleep(1_500); // the slow clients are mid-body now (they run for 5 s before the deadline)
            long started = System.nanoTime();
            Api.Reply served = api.acquire(product, key, "inst-meanwhile");
            assertEquals(201, served.status(), "another client is served meanwhile: " + served);
            assertTrue(System.nanoTime() - started < 3_000_000_000L, "and promptly");
            for (java.util.concurrent.Future<String> answer : answers) {
                String outcome = answer.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertTrue(outcome.startsWith("408 "), outcome);
            }
            assertEquals("0", api.send("GET", "/test-support/threads/blocked-reading", null, Map.of()).body(),
                    "every thread that read a slow body was freed at its deadline");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease l JOIN license c ON c.id = l.license_id WHERE c.product = ?", product));
    }

    /** Headers with Content-Length 1000, then a byte every 500 ms (or nothing) for at most 20 s: what came back, and when. */
    private String slowClient(boolean stalled) throws Exception {
        long started = System.nanoTime();
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", base.getPort())) {
            socket.setSoTimeout(20_000);
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/seats/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            java.io.InputStream in = socket.getInputStream();
            for (int sent = 0; sent < 40 && in.available() == 0; sent++) {
                Thread.sleep(500);
                if (!stalled) {
                    try {
                        out.write(' ');
                        out.flush();
                    } catch (java.io.IOException closedByServer) {
                        break;
                    }
                }
            }
            String text = RawHttp.Reply.read(in).toString();
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            if (!text.startsWith("408 ") || !text.contains("application/problem+json") || !text.contains("request-timeout")) {
                return "unexpected after " + seconds + " s: " + text;
            }
            return seconds >= 4 && seconds <= 12 ? "408 after " + seconds + " s" : "408 but after " + seconds + " s";
        }
    }

    /** A body that arrives after a pause (within the deadline) reaches the admin resource as the administrator. */
    @Test
    void aBodySentAfterAPauseReachesTheAdminResourceAsTheAdministrator() throws Exception {
        String product = uniqueProduct("paused");
        String body = "{\"product\":\"" + product + "\",\"seats\":3}";
        for (String credentials : List.of(BASIC, "none")) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", base.getPort())) {
                socket.setSoTimeout(20_000);
                java.io.OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/admin/licenses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + (credentials.equals("none") ? "" : "Authorization: " + credentials + "\r\n")
                        + "Content-Length: " + body.length() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(300); // the headers are handled before the body is there
                out.write(body.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                RawHttp.Reply reply = RawHttp.Reply.read(socket.getInputStream());
                if (credentials.equals("none")) {
                    assertEquals(401, reply.status(), reply.toString());
                } else {
                    assertEquals(201, reply.status(), reply.toString());
                    assertTrue(reply.body().contains("\"licenseKey\""), reply.toString());
                }
            }
        }
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM license WHERE product = ?", product));
    }
}
