package dev.keyright.seats.problems;

import dev.keyright.seats.testing.Api;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The malformed-request corpus: broken and hostile input for every endpoint. */
final class BadRequests {

    /**
     * One malformed request. {@code transport}: refused by the HTTP layer before any application code
     * runs (a body on GET or DELETE, NUL or an encoded slash in the path); the server answers those
     * with a bare 400 and no body, which the corpus accepts only for them.
     */
    record Case(String name, String method, String path, Map<String, String> headers, String body, boolean admin,
                boolean transport) {
        Case(String name, String method, String path, Map<String, String> headers, String body, boolean admin) {
            this(name, method, path, headers, body, admin, false);
        }
    }

    private BadRequests() {
    }

    static Map<String, String> withAdmin(Map<String, String> headers) {
        Map<String, String> all = new HashMap<>(headers);
        all.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                (Api.ADMIN_USER + ":" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        return all;
    }

    static List<Case> corpus(String key, String licenseId, String leaseId) {
        List<Case> cases = new ArrayList<>();
        Map<String, String> json = Map.of("Content-Type", "application/json");
        String valid = "{\"product\":\"corpus\",\"licenseKey\":\"" + key + "\",\"clientInstanceId\":\"inst-x\"}";

        // Broken JSON.
        List<String> broken = List.of("", " ", "{", "}", "[", "{\"product\":", "{\"product\" \"x\"}", "{product:\"x\"}",
                "{'product':'x'}", "{\"product\":\"x\",}", "nul", "null", "true", "42", "\"string\"", "[]", "[{}]",
                "{\"a\":\"\\u12\"}", "{\"a\":\"\\x41\"}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":NaN}",
                "{\"a\":Infinity}", "\uFEFF" + valid.substring(0, 10), valid + "garbage", valid + valid,
                "{\"product\":\"corpus\"/*comment*/}", "{\"a\":\"unterminated}", "\u0000");
        for (int i = 0; i < broken.size(); i++) {
            cases.add(new Case("broken-json-" + i, "POST", "/v1/seats/acquire", json, broken.get(i), false));
            cases.add(new Case("admin-broken-json-" + i, "POST", "/v1/admin/licenses", json, broken.get(i), true));
        }
        // Deep nesting.
        for (int depth : new int[] {20, 200, 5000}) {
            String deep = "{\"product\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
            cases.add(new Case("deep-array-" + depth, "POST", "/v1/seats/acquire", json, deep, false));
            String deepObjects = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
            cases.add(new Case("deep-object-" + depth, "POST", "/v1/admin/licenses", json, deepObjects, true));
        }
        // Wrong types, nulls, huge numbers, hostile strings in every acquire field.
        List<String> values = List.of("1", "true", "null", "[]", "{}", "1e999999", "123456789012345678901234567890",
                "-0", "\"\"", "\"" + "x".repeat(300) + "\"", "\"../../etc/passwd\"", "\"' OR '1'='1' --\"",
                "\"a\\u0000b\"", "\"\\u202Eevil\"", "\"\\ud800\"", "\"x\\ny\"", "\"%00\"", "\"<script>alert(1)</script>\"");
        for (String field : List.of("product", "clientInstanceId")) {
            for (int i = 0; i < values.size(); i++) {
                String body = valid.replaceFirst("\"" + field + "\":\"[^\"]*\"",
                        java.util.regex.Matcher.quoteReplacement("\"" + field + "\":" + values.get(i)));
                cases.add(new Case("acquire-" + field + "-" + i, "POST", "/v1/seats/acquire", json, body, false));
            }
        }
        for (int i = 0; i < values.size(); i++) {
            String body = valid.replace("\"licenseKey\":\"" + key + "\"", "\"licenseKey\":" + values.get(i));
            cases.add(new Case("acquire-licenseKey-" + i, "POST", "/v1/seats/acquire", json, body, false));
            String metadata = valid.replace("}", ",\"metadata\":{\"user\":" + values.get(i) + "}}");
            if (!values.get(i).equals("null") && !values.get(i).equals("\"x\\ny\"") && !values.get(i).startsWith("\"<")
                    && !values.get(i).startsWith("\"../") && !values.get(i).startsWith("\"'") && !values.get(i).startsWith("\"%")
                    && !values.get(i).equals("\"\\u202Eevil\"") && !values.get(i).equals("\"\\ud800\"")) {
                cases.add(new Case("acquire-metadata-" + i, "POST", "/v1/seats/acquire", json, metadata, false));
            }
        }
        // Missing, extra and duplicate fields.
        cases.add(new Case("missing-product", "POST", "/v1/seats/acquire", json, valid.replace("\"product\":\"corpus\",", ""), false));
        cases.add(new Case("missing-key", "POST", "/v1/seats/acquire", json, valid.replace("\"licenseKey\":\"" + key + "\",", ""), false));
        cases.add(new Case("missing-client", "POST", "/v1/seats/acquire", json, valid.replace(",\"clientInstanceId\":\"inst-x\"", ""), false));
        cases.add(new Case("extra-field", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"seats\":100}"), false));
        cases.add(new Case("extra-metadata", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"metadata\":{\"role\":\"admin\"}}"), false));
        cases.add(new Case("duplicate-client", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"clientInstanceId\":\"inst-y\"}"), false));
        cases.add(new Case("duplicate-product", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"product\":\"corpus\"}"), false));
        cases.add(new Case("wrong-product", "POST", "/v1/seats/acquire", json, valid.replace("\"corpus\"", "\"other\""), false));
        cases.add(new Case("unknown-key", "POST", "/v1/seats/acquire", json, valid.replace(key, "CORP-0000-0000-0000"), false));
        cases.add(new Case("no-content-type", "POST", "/v1/seats/acquire", Map.of(), valid, false));
        cases.add(new Case("xml", "POST", "/v1/seats/acquire", Map.of("Content-Type", "application/xml"), "<acquire/>", false));
        cases.add(new Case("form", "POST", "/v1/seats/acquire", Map.of("Content-Type", "application/x-www-form-urlencoded"), "product=corpus", false));
        cases.add(new Case("oversized", "POST", "/v1/seats/acquire", json, valid.replace("inst-x", "x".repeat(17_000)), false));
        cases.add(new Case("oversized-admin", "POST", "/v1/admin/licenses", json, "{\"customer\":\"" + "x".repeat(17_000) + "\"}", true));
        cases.add(new Case("idempotency-key-too-long", "POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json", "Idempotency-Key", "k".repeat(300)), valid, false));
        cases.add(new Case("idempotency-key-empty-quoted", "POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json", "Idempotency-Key", "\"\""), valid, false));
        cases.add(new Case("idempotency-key-bad-quote", "POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json", "Idempotency-Key", "\"a\"b\""), valid, false));

        // Bodies that reached the parser's and the database's limits (issue 12): each a 4xx, never a 500.
        String digits = "1" + "0".repeat(1_100);
        for (String charset : List.of("bogus", "iso-8859-1", "utf-16", "\"\"", "x;y")) {
            cases.add(new Case("charset-" + charset, "POST", "/v1/seats/acquire",
                    Map.of("Content-Type", "application/json; charset=" + charset), valid, false));
            cases.add(new Case("admin-charset-" + charset, "POST", "/v1/admin/licenses",
                    Map.of("Content-Type", "application/json; charset=" + charset), "{\"product\":\"p\",\"seats\":2}", true));
        }
        cases.add(new Case("digits-unknown-field", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"x\":" + digits + "}"), false));
        cases.add(new Case("digits-in-metadata", "POST", "/v1/seats/acquire", json, valid.replace("}", ",\"metadata\":{\"user\":" + digits + "}}"), false));
        cases.add(new Case("digits-with-key", "POST", "/v1/seats/acquire",
                Map.of("Content-Type", "application/json", "Idempotency-Key", "digits"), valid.replace("}", ",\"x\":-" + digits + "}"), false));
        cases.add(new Case("admin-digits-seats", "POST", "/v1/admin/licenses", json, "{\"product\":\"p\",\"seats\":" + digits + "}", true));
        cases.add(new Case("admin-digits-fraction", "POST", "/v1/admin/licenses", json, "{\"product\":\"p\",\"seats\":0." + digits + "}", true));
        cases.add(new Case("admin-patch-digits", "PATCH", "/v1/admin/licenses/" + licenseId, json, "{\"ttlSeconds\":" + digits + "}", true));
        for (String number : List.of("5e0", "1E2", "2.0", "-0.0", "3e-0", "1000000000000000000000")) {
            cases.add(new Case("admin-seats-" + number, "POST", "/v1/admin/licenses", json, "{\"product\":\"p\",\"seats\":" + number + "}", true));
        }
        for (String notAfter : List.of("+1000000000-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "99999-12-31T23:59:59Z",
                "2027-02-30T00:00:00Z", "2027-01-01T00:00:00+01:00", "2027-01-01 00:00:00Z")) {
            cases.add(new Case("admin-notAfter-" + notAfter, "POST", "/v1/admin/licenses", json,
                    "{\"product\":\"p\",\"seats\":2,\"notAfter\":\"" + notAfter + "\"}", true));
        }
        for (String idempotencyKey : List.of("\"abc", "\"", "abc\"", "a\"b", "\"a\\\"")) {
            cases.add(new Case("idempotency-key-quote-" + idempotencyKey, "POST", "/v1/seats/acquire",
                    Map.of("Content-Type", "application/json", "Idempotency-Key", idempotencyKey), valid, false));
        }

        // Renew and release: hostile lease ids and authorization headers.
        cases.add(new Case("renew-nul-id", "POST", "/v1/seats/%00/renew", Map.of("Authorization", "License " + key), null, false, true));
        List<String> leaseIds = List.of("nope", "lease_%27%20OR%20%271%27%3D%271", "lease_..",
                "lease_" + "0".repeat(5000), "lease_%E2%80%AE", "LEASE_" + leaseId.substring(6).toUpperCase(),
                leaseId + "%0A", "lease_00000000000000000000000000000000");
        for (int i = 0; i < leaseIds.size(); i++) {
            for (String verb : List.of("renew", "release")) {
                cases.add(new Case(verb + "-id-" + i, "POST", "/v1/seats/" + leaseIds.get(i) + "/" + verb,
                        Map.of("Authorization", "License " + key), null, false));
            }
        }
        List<String> authorizations = List.of("License", "License ", "Basic " + key, "Bearer " + key, "license" + key,
                "License ' OR 1=1 --", "License " + "K".repeat(5000), "License " + key + "x", "License ..%2F");
        for (int i = 0; i < authorizations.size(); i++) {
            for (String verb : List.of("renew", "release")) {
                cases.add(new Case(verb + "-auth-" + i, "POST", "/v1/seats/" + leaseId + "/" + verb,
                        Map.of("Authorization", authorizations.get(i)), null, false));
            }
            cases.add(new Case("pool-auth-" + i, "GET", "/v1/seats/pool?product=corpus",
                    Map.of("Authorization", authorizations.get(i)), null, false));
        }
        cases.add(new Case("renew-no-auth", "POST", "/v1/seats/" + leaseId + "/renew", Map.of(), null, false));
        cases.add(new Case("release-no-auth", "POST", "/v1/seats/" + leaseId + "/release", Map.of(), null, false));
        for (String product : List.of("other", "..%2F..%2F", "%27%20OR%201%3D1", "x".repeat(3000), "%00")) {
            cases.add(new Case("pool-product-" + product.length(), "GET", "/v1/seats/pool?product=" + product,
                    Map.of("Authorization", "License " + key), null, false));
        }

        // Admin: invalid licenses and changes.
        List<String> licenses = List.of("{\"product\":\"p\",\"seats\":-1}", "{\"product\":\"p\",\"seats\":0}",
                "{\"product\":\"p\",\"seats\":1e10}", "{\"product\":\"p\",\"seats\":\"10\"}", "{\"product\":\"p\",\"seats\":null}",
                "{\"product\":\"p\",\"seats\":1.5}", "{\"product\":\"p\",\"seats\":2,\"ttlSeconds\":1}",
                "{\"product\":\"p\",\"seats\":2,\"ttlSeconds\":99999999999}", "{\"product\":\"p\",\"seats\":2,\"skewSeconds\":99999}",
                "{\"product\":\"p\",\"seats\":2,\"skewSeconds\":-1}", "{\"product\":\"a b\",\"seats\":2}",
                "{\"product\":\"../etc\",\"seats\":2}", "{\"product\":\"\",\"seats\":2}", "{\"seats\":2}",
                "{\"product\":\"p\",\"seats\":2,\"notAfter\":\"tomorrow\"}", "{\"product\":\"p\",\"seats\":2,\"customer\":\"" + "c".repeat(300) + "\"}",
                "{\"product\":\"p\",\"seats\":2,\"licenseKey\":\"MINE\"}", "{\"product\":\"p\",\"seats\":2,\"seats\":3}",
                "{\"product\":\"p\",\"seats\":2,\"status\":\"active\"}", "{\"product\":\"p\",\"seats\":2,\"customer\":\"a\\u0007b\"}");
        for (int i = 0; i < licenses.size(); i++) {
            cases.add(new Case("admin-create-" + i, "POST", "/v1/admin/licenses", json, licenses.get(i), true));
        }
        List<String> changes = List.of("{}", "{\"status\":\"deleted\"}", "{\"seats\":\"x\"}", "{\"seats\":0}",
                "{\"ttlSeconds\":0}", "{\"skewSeconds\":100000}", "{\"product\":\"renamed\"}", "[]", "{\"status\":null,\"x\":1}",
                "{\"seats\":2,\"seats\":3}",
                // seat policies: out of range, wrong types, malformed reservations, more reserved than seats
                "{\"overdraftSeats\":3}", "{\"overdraftSeats\":-1}", "{\"lingerSeconds\":3601}", "{\"lingerSeconds\":\"5\"}",
                "{\"maxPerUser\":0}", "{\"maxPerUser\":3}", "{\"maxPerHost\":\"x\"}", "{\"maxPerHost\":1.5}",
                "{\"reservations\":\"x\"}", "{\"reservations\":[1]}", "{\"reservations\":[{\"name\":\"r\",\"seats\":1}]}",
                "{\"reservations\":[{\"name\":\"r\",\"hosts\":[\"h\"],\"seats\":3}]}",
                "{\"reservations\":[{\"name\":\"r\",\"hosts\":[\"h\"],\"seats\":1,\"extra\":true}]}",
                "{\"reservations\":[{\"name\":\"r\",\"hosts\":[\"h\"],\"seats\":1},{\"name\":\"r\",\"users\":[\"u\"],\"seats\":1}]}",
                "{\"reservations\":[{\"name\":\"r\",\"hosts\":[\"\"],\"seats\":1}]}");
        for (int i = 0; i < changes.size(); i++) {
            cases.add(new Case("admin-patch-" + i, "PATCH", "/v1/admin/licenses/" + licenseId, json, changes.get(i), true));
        }
        for (String id : List.of("lic_unknown", "..%2F..%2Fetc", "%27%20OR%201%3D1", "x".repeat(3000))) {
            cases.add(new Case("admin-get-" + id.length(), "GET", "/v1/admin/licenses/" + id, Map.of(), null, true));
            cases.add(new Case("admin-patch-unknown-" + id.length(), "PATCH", "/v1/admin/licenses/" + id, json, "{\"seats\":3}", true));
            cases.add(new Case("admin-revoke-" + id.length(), "DELETE", "/v1/admin/licenses/" + licenseId + "/leases/" + id, Map.of(), null, true));
        }
        for (String block : List.of("-1", "abc", "86401", "1e3", "3600.5", "99999999999")) {
            cases.add(new Case("admin-revoke-block-" + block, "DELETE", "/v1/admin/licenses/" + licenseId + "/leases/" + leaseId
                    + "?blockSeconds=" + block, Map.of(), null, true));
        }
        for (String id : List.of("lease_unknown", "lease_" + "0".repeat(32), "LEASE_" + "a".repeat(32))) {
            cases.add(new Case("lease-view-" + id, "GET", "/v1/seats/" + id, Map.of("Authorization", "License " + key), null, false));
        }
        cases.add(new Case("lease-view-no-key", "GET", "/v1/seats/" + leaseId, Map.of(), null, false));
        cases.add(new Case("lease-view-wrong-key", "GET", "/v1/seats/" + leaseId, Map.of("Authorization", "License WRONG-KEY"), null, false));
        cases.add(new Case("admin-revoke-other-license", "DELETE", "/v1/admin/licenses/lic_unknown/leases/" + leaseId, Map.of(), null, true));
        cases.add(new Case("admin-no-auth", "POST", "/v1/admin/licenses", json, "{\"product\":\"p\",\"seats\":2}", false));
        cases.add(new Case("admin-list-no-auth", "GET", "/v1/admin/licenses", Map.of(), null, false));
        cases.add(new Case("admin-revoke-no-auth", "DELETE", "/v1/admin/licenses/" + licenseId + "/leases/" + leaseId, Map.of(), null, false));
        cases.add(new Case("admin-patch-no-auth", "PATCH", "/v1/admin/licenses/" + licenseId, json, "{\"status\":\"suspended\"}", false));
        cases.add(new Case("admin-usage-no-auth", "GET", "/v1/admin/licenses/" + licenseId + "/usage", Map.of(), null, false));
        cases.add(new Case("admin-page-no-auth", "GET", "/admin/", Map.of(), null, false));
        cases.add(new Case("admin-wrong-password", "GET", "/v1/admin/licenses",
                Map.of("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:nope".getBytes(StandardCharsets.UTF_8))), null, false));
        cases.add(new Case("admin-malformed-basic", "GET", "/v1/admin/licenses", Map.of("Authorization", "Basic !!!"), null, false));
        cases.add(new Case("admin-license-key-as-admin", "GET", "/v1/admin/licenses", Map.of("Authorization", "License " + key), null, false));

        // Unknown routes, wrong methods, wrong media types.
        for (String path : List.of("/", "/v1", "/v1/seats", "/v1/seats/" + leaseId, "/v1/seats/" + leaseId + "/extend",
                "/v2/seats/acquire", "/WEB-INF/web.xml", "/META-INF/MANIFEST.MF", "/v1/admin",
                "/.well-known/other", "/problem/x", "/test-support-nope")) {
            cases.add(new Case("route-" + path, "GET", path, Map.of(), null, false));
        }
        cases.add(new Case("route-encoded-slash", "GET", "/..%2FWEB-INF%2Fweb.xml", Map.of(), null, false, true));
        for (String method : List.of("GET", "DELETE")) {
            cases.add(new Case("method-acquire-body-" + method, method, "/v1/seats/acquire", json, valid, false, true));
            cases.add(new Case("method-acquire-" + method, method, "/v1/seats/acquire", Map.of(), null, false));
        }
        for (String method : List.of("GET", "PUT", "DELETE", "PATCH")) {
            if (!method.equals("GET") && !method.equals("DELETE")) {
                cases.add(new Case("method-acquire-" + method, method, "/v1/seats/acquire", json, valid, false));
            }
            cases.add(new Case("method-renew-" + method, method, "/v1/seats/" + leaseId + "/renew", Map.of("Authorization", "License " + key), null, false));
        }
        cases.add(new Case("method-pool-post", "POST", "/v1/seats/pool", json, "{}", false));
        cases.add(new Case("method-jwks-post", "POST", "/.well-known/jwks.json", json, "{}", false));
        cases.add(new Case("admin-create-text", "POST", "/v1/admin/licenses", Map.of("Content-Type", "text/plain"), "{\"product\":\"p\",\"seats\":2}", true));
        cases.add(new Case("admin-patch-xml", "PATCH", "/v1/admin/licenses/" + licenseId, Map.of("Content-Type", "application/xml"), "<x/>", true));
        return cases;
    }
}
