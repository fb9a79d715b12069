package dev.keyright.seats.testing;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/** A small HTTP client for the wire contract, as a black-box client would use it. */
public final class Api {

    public static final String ADMIN_USER = "admin";
    public static final String ADMIN_PASSWORD = "it-admin-password";

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    public Api(URL base) {
        String text = Deployments.loopback(base).toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
    }

    public Reply send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path.startsWith("/") ? path.substring(1) : path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (!headers.containsKey("X-Forwarded-For")) {
            request.header("X-Forwarded-For", someClientAddress());
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return checked(method, body, headers, response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The answer, once the exchange is held against the OpenAPI document ({@link Contract}): a breach fails the test. */
    private Reply checked(String method, String body, Map<String, String> headers, HttpResponse<String> response) {
        URI uri = response.request().uri();
        String path = "/" + uri.getRawPath().substring(base.getRawPath().length())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Contract.document().check(method, path, headers, body, response.statusCode(), response.headers(), response.body());
        return new Reply(response);
    }

    /** Each request speaks for one of 254 clients (TEST-NET-2 addresses), unless a test names one. */
    private static String someClientAddress() {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        return "198.51.100." + random.nextInt(1, 255);
    }

    public Reply admin(String method, String path, String body) {
        String basic = Base64.getEncoder().encodeToString((ADMIN_USER + ":" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));
        return send(method, path, body, body == null ? Map.of("Authorization", "Basic " + basic)
                : Map.of("Authorization", "Basic " + basic, "Content-Type", "application/json"));
    }

    /** Creates a license and returns it with its one-time key. */
    public JsonObject createLicense(String product, int seats, int ttlSeconds, int skewSeconds) {
        Reply reply = admin("POST", "/v1/admin/licenses", Json.createObjectBuilder().add("product", product)
                .add("seats", seats).add("ttlSeconds", ttlSeconds).add("skewSeconds", skewSeconds).build().toString());
        if (reply.status() != 201) {
            throw new IllegalStateException("license not created: " + reply);
        }
        return reply.json();
    }

    public Reply acquire(String product, String key, String clientInstanceId, Map<String, String> headers) {
        String body = Json.createObjectBuilder().add("product", product).add("licenseKey", key)
                .add("clientInstanceId", clientInstanceId)
                .add("metadata", Json.createObjectBuilder().add("user", "user-" + clientInstanceId).add("host", "host-1"))
                .build().toString();
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Content-Type", "application/json");
        return send("POST", "/v1/seats/acquire", body, all);
    }

    /**
     * An acquire sent without waiting for its answer (a request the server may hold, {@code Prefer: wait}); the
     * answer is awaited for up to 90 seconds.
     */
    public java.util.concurrent.CompletableFuture<Reply> acquireLater(String product, String key, String clientInstanceId,
                                                                     Map<String, String> headers) {
        String body = Json.createObjectBuilder().add("product", product).add("licenseKey", key)
                .add("clientInstanceId", clientInstanceId)
                .add("metadata", Json.createObjectBuilder().add("user", "user-" + clientInstanceId).add("host", "host-1"))
                .build().toString();
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("v1/seats/acquire"))
                .timeout(Duration.ofSeconds(90))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .header("Content-Type", "application/json")
                .header("X-Forwarded-For", someClientAddress());
        headers.forEach(request::header);
        Map<String, String> sent = new java.util.HashMap<>(headers);
        sent.put("Content-Type", "application/json");
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> checked("POST", body, sent, response));
    }

    /** An acquire whose client reports this user and host ({@code metadata}; either may be null). */
    public Reply acquireAs(String product, String key, String clientInstanceId, String user, String host) {
        var metadata = Json.createObjectBuilder();
        if (user != null) {
            metadata.add("user", user);
        }
        if (host != null) {
            metadata.add("host", host);
        }
        String body = Json.createObjectBuilder().add("product", product).add("licenseKey", key)
                .add("clientInstanceId", clientInstanceId).add("metadata", metadata).build().toString();
        return send("POST", "/v1/seats/acquire", body, Map.of("Content-Type", "application/json"));
    }

    /** The claims of a lease token (its payload, not verified: the tests of verification are elsewhere). */
    public static JsonObject tokenClaims(String token) {
        String payload = new String(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        return Json.createReader(new StringReader(payload)).readObject();
    }

    /** Creates a license from a whole body (the offline-use fields, a node-locked model) and returns it with its key. */
    public JsonObject createLicense(JsonObject body) {
        Reply reply = admin("POST", "/v1/admin/licenses", body.toString());
        if (reply.status() != 201) {
            throw new IllegalStateException("license not created: " + reply);
        }
        return reply.json();
    }

    /** Takes a live seat off the network for {@code hours}. */
    public Reply borrow(String key, String leaseId, int hours) {
        return send("POST", "/v1/seats/" + leaseId + "/borrow", "{\"hours\":" + hours + "}",
                Map.of("Authorization", "License " + key, "Content-Type", "application/json"));
    }

    /** Activates the machine of {@code fingerprint} on a node-locked license. */
    public Reply activate(String product, String key, String fingerprint, Map<String, String> headers) {
        String body = Json.createObjectBuilder().add("product", product).add("licenseKey", key)
                .add("fingerprint", fingerprint)
                .add("metadata", Json.createObjectBuilder().add("user", "user-" + fingerprint.substring(0, 8)).add("host", "host-1"))
                .build().toString();
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Content-Type", "application/json");
        return send("POST", "/v1/activations", body, all);
    }

    public Reply activate(String product, String key, String fingerprint) {
        return activate(product, key, fingerprint, Map.of());
    }

    public Reply refreshActivation(String key, String activationId) {
        return send("POST", "/v1/activations/" + activationId + "/refresh", null, Map.of("Authorization", "License " + key));
    }

    public Reply deactivate(String key, String activationId) {
        return send("DELETE", "/v1/activations/" + activationId, null, Map.of("Authorization", "License " + key));
    }

    public Reply acquire(String product, String key, String clientInstanceId) {
        return acquire(product, key, clientInstanceId, Map.of());
    }

    public Reply renew(String key, String leaseId) {
        return send("POST", "/v1/seats/" + leaseId + "/renew", null, Map.of("Authorization", "License " + key));
    }

    public Reply release(String key, String leaseId) {
        return send("POST", "/v1/seats/" + leaseId + "/release", null, Map.of("Authorization", "License " + key));
    }

    /** Gives up the install's place in the queue. */
    public Reply leaveQueue(String key, String clientInstanceId) {
        return send("DELETE", "/v1/seats/queue/" + clientInstanceId, null, Map.of("Authorization", "License " + key));
    }

    /** How many acquires the server holds now, waiting for a seat (test deployments only). */
    public int heldRequests() {
        return Integer.parseInt(send("GET", "/test-support/queue/held", null, Map.of()).body());
    }

    /** Whether the server remembers the lease's fixed facts, so that its next heartbeat is one statement (test deployments only). */
    public boolean serverKnowsLease(String leaseId) {
        return Boolean.parseBoolean(send("GET", "/test-support/known-leases/" + leaseId, null, Map.of()).body());
    }

    /** How many threads the server's JVM runs now (test deployments only). */
    public int serverThreads() {
        return Integer.parseInt(send("GET", "/test-support/threads/count", null, Map.of()).body());
    }

    /** How many of the server's threads are inside a request now, this one included (test deployments only). */
    public int serverThreadsServing() {
        return Integer.parseInt(send("GET", "/test-support/threads/serving", null, Map.of()).body());
    }

    public Reply pool(String product, String key) {
        return send("GET", "/v1/seats/pool?product=" + product, null, Map.of("Authorization", "License " + key));
    }

    /** Server time control (test deployments only). */
    public long advanceClock(Duration by) {
        return Long.parseLong(send("POST", "/test-support/clock/advance?millis=" + by.toMillis(), null, Map.of()).body());
    }

    public void freezeClock(long epochMillis) {
        send("POST", "/test-support/clock/freeze?at=" + epochMillis, null, Map.of());
    }

    /** System time again: no offset, not frozen. */
    public void resetClock() {
        send("DELETE", "/test-support/clock", null, Map.of());
    }

    public void thawClock() {
        send("DELETE", "/test-support/clock/freeze", null, Map.of());
    }

    /** Forgets what the server logged so far (test deployments only). */
    public void markServerLog() {
        send("POST", "/test-support/log/mark", null, Map.of());
    }

    /** What the server logged at WARNING or above since the mark. */
    public java.util.List<String> serverWarnings() {
        return Json.createReader(new StringReader(send("GET", "/test-support/log", null, Map.of()).body())).readArray()
                .getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList();
    }

    public JsonObject reap() {
        return send("POST", "/test-support/reap", null, Map.of()).json();
    }

    /** Runs the start-up's flagging of the licenses that have blocks in force or queue entries ({@code LicenseFlags}). */
    public JsonObject flagLicenses() {
        return send("POST", "/test-support/license-flags", null, Map.of()).json();
    }

    /** An HTTP answer. */
    public record Reply(HttpResponse<String> response) {
        public int status() { return response.statusCode(); }
        public String body() { return response.body(); }
        public String header(String name) { return response.headers().firstValue(name).orElse(null); }
        public String contentType() { return header("Content-Type"); }
        public JsonObject json() { return Json.createReader(new StringReader(body())).readObject(); }

        @Override
        public String toString() {
            return status() + " " + body();
        }
    }
}
