package dev.keyright.seats.problems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.Test;

/**
 * A corpus of malformed requests against every endpoint: each answer is a 4xx problem document that
 * names nothing internal, and the database is exactly as it was afterwards.
 */
class BadInputIT extends OnTheServer {

    private static final Pattern INTERNALS = Pattern.compile(
            "Exception|java\\.|jakarta\\.|org\\.|eclipse|\\bSQL|select |\\bat [a-z]+\\.|\\.java:|<html|<HTML");

    @Test
    void everyMalformedRequestIsA4xxProblemAndChangesNothing() {
        Api api = api();
        JsonObject license = api.createLicense("corpus", 2, 60, 5);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        String leaseId = api.acquire("corpus", key, "inst-corpus").json().getString("leaseId");
        List<BadRequests.Case> corpus = BadRequests.corpus(key, licenseId, leaseId);
        assertTrue(corpus.size() >= 200, "corpus size " + corpus.size());

        String before = Tables.snapshot();
        api.markServerLog();
        List<String> failures = new ArrayList<>();
        for (BadRequests.Case bad : corpus) {
            Api.Reply reply = bad.admin()
                    ? api.send(bad.method(), bad.path(), bad.body(), BadRequests.withAdmin(bad.headers()))
                    : api.send(bad.method(), bad.path(), bad.body(), bad.headers());
            String problem = bad.transport() && reply.status() == 400 && reply.body().isEmpty() ? null : check(reply);
            String answered = reply.status() + " " + (reply.body().isEmpty() ? "-"
                    : reply.body().replaceAll("(?s).*\"type\":\"https://keyright.dev/problems/([a-z-]+)\".*", "$1"));
            String expected = expected(bad.name());
            if (problem == null && !answered.equals(expected)) {
                problem = "expected " + expected + ", answered " + answered;
            }
            if (problem != null) {
                failures.add(bad.name() + " -> " + problem);
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(List.of(), api.serverWarnings(), "a client's bad input never logs a stack trace, a SEVERE or a WARNING record");
        assertEquals(before, Tables.snapshot(), "no malformed request changed anything");
        assertEquals(200, api.renew(key, leaseId).status(), "and the real lease is still fine");
    }

    /**
     * What each case must be answered, by the contract (docs/API.md "Errors"): its status and problem type, "-"
     * for the HTTP layer's bare 400. The first rule that matches the case's name decides.
     */
    private static final List<Map.Entry<Pattern, String>> EXPECTED = List.of(
            rule("(admin-)?charset-.*|form|xml|no-content-type|admin-create-text|admin-patch-xml", "415 unsupported-media-type"),
            rule("oversized(-admin)?|deep-object-5000", "413 payload-too-large"),
            rule("method-acquire-body-.*|renew-nul-id|route-encoded-slash", "400 -"),
            rule("method-.*", "405 method-not-allowed"),
            rule("route-/v1/admin|admin-(no-auth|list-no-auth|revoke-no-auth|patch-no-auth|usage-no-auth|page-no-auth"
                    + "|malformed-basic|wrong-password|license-key-as-admin)", "401 unauthorized"),
            rule("route-/v1/seats/lease_[0-9a-f]{32}", "401 invalid-license"),
            rule("route-.*", "404 not-found"),
            rule("admin-(get|patch-unknown)-11|admin-revoke-other-license", "404 license-not-found"),
            rule("admin-revoke-11|(renew|release)-id-(0|2|5|7)|lease-view-lease_0{32}", "404 lease-not-found"),
            rule("admin-(get|patch-unknown|revoke)-\\d+|(renew|release)-id-\\d+", "400 invalid-path"),
            rule("lease-view-(lease_unknown|LEASE_a{32})", "404 not-found"),
            rule("(renew|release|pool)-auth-\\d+|(renew|release)-no-auth|pool-product-.*|unknown-key|wrong-product"
                    + "|lease-view-(no|wrong)-key|acquire-licenseKey-(10|16|17)", "401 invalid-license"),
            rule(".*", "400 invalid-request"));

    private static Map.Entry<Pattern, String> rule(String names, String answer) {
        return Map.entry(Pattern.compile(names), answer);
    }

    private static String expected(String name) {
        return EXPECTED.stream().filter(rule -> rule.getKey().matcher(name).matches()).findFirst().orElseThrow().getValue();
    }

    private static String check(Api.Reply reply) {
        if (reply.status() < 400 || reply.status() >= 500) {
            return "status " + reply.status() + " " + reply.body();
        }
        String type = reply.contentType() == null ? "" : reply.contentType();
        if (!type.startsWith("application/problem+json")) {
            return "content type " + type + " " + reply.body();
        }
        JsonObject problem = reply.json();
        for (String member : List.of("type", "title", "status", "detail")) {
            if (!problem.containsKey(member)) {
                return "no " + member + ": " + reply.body();
            }
        }
        if (problem.getInt("status") != reply.status() || !problem.getString("type").startsWith("https://keyright.dev/problems/")) {
            return "inconsistent problem " + reply.body();
        }
        if (INTERNALS.matcher(reply.body()).find()) {
            return "leaks internals: " + reply.body();
        }
        if (!"nosniff".equals(reply.header("X-Content-Type-Options")) || String.valueOf(reply.header("Server")).contains("Payara")) {
            return "security headers missing or a server banner: " + reply.response().headers().map();
        }
        return null;
    }

    @Test
    void unknownRoutesWrongMethodsAndMediaTypesAreProblems() {
        Api api = api();
        Map<String, Integer> expected = Map.of("GET /nothing-here", 404, "GET /v1/seats/acquire", 405,
                "DELETE /v1/seats/pool", 405, "PUT /.well-known/jwks.json", 405);
        expected.forEach((request, status) -> {
            String[] parts = request.split(" ");
            Api.Reply reply = api.send(parts[0], parts[1], null, Map.of());
            assertEquals(status, reply.status(), request);
            assertEquals(null, check(reply), request);
        });
        Api.Reply text = api.send("POST", "/v1/seats/acquire", "product=x", Map.of("Content-Type", "text/plain"));
        assertEquals(415, text.status());
        assertEquals(null, check(text));
        Api.Reply huge = api.send("POST", "/v1/seats/acquire", "{\"product\":\"" + "x".repeat(20_000) + "\"}",
                Map.of("Content-Type", "application/json"));
        assertEquals(413, huge.status());
        assertEquals(null, check(huge));
    }
}
