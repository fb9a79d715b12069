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
            if (problem != null) {
                failures.add(bad.name() + " -> " + problem);
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(List.of(), api.serverWarnings(), "a client's bad input never logs a stack trace, a SEVERE or a WARNING record");
        assertEquals(before, Tables.snapshot(), "no malformed request changed anything");
        assertEquals(200, api.renew(key, leaseId).status(), "and the real lease is still fine");
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
