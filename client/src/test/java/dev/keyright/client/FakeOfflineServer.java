package dev.keyright.client;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jose4j.json.JsonUtil;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

/**
 * The server side of "Offline use: borrowing a seat" and "Node-locked activations" (docs/API.md), in memory, as
 * a {@link Transport}: acquire (one lease per install), borrow, release, JWKS, activate (with the one live
 * activation per fingerprint rule and idempotent replay), refresh and deactivate. It signs as the server does:
 * ES256 with a P-256 key made for the test, {@code typ: lease+jwt} (with {@code bor: true} once borrowed) and
 * {@code typ: activation+jwt}. Its clock is {@link #now}, which only a test moves, or the clock it {@link #following follows}.
 */
final class FakeOfflineServer implements Transport {

    static final String PRODUCT = "acme-studio";
    static final String LICENSE_KEY = "ACME-STU-7F3K";
    static final String ISSUER = "https://keyright.test";
    static final Instant START = Instant.parse("2026-12-04T12:00:00Z");

    final TokenMint mint = new TokenMint("key-1");
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final List<String> idempotencyKeys = Collections.synchronizedList(new ArrayList<>());
    final List<String> bodies = Collections.synchronizedList(new ArrayList<>());
    volatile Instant now = START;
    /** When set, the server's clock is this one instead of {@link #now}: a test's fake time moves both. */
    volatile java.time.Clock following;
    volatile String model = "floating";
    volatile long maxBorrowHours = 72;
    volatile long ttlSeconds = 120;
    volatile int maxActivations = 2;
    volatile long offlineDays = 30;
    volatile boolean down;
    /** Answer activations with API v2's body only: no fingerprint, activatedAt nor expiresAt. */
    volatile boolean shortActivationBody;
    /** Makes each borrowed lease token's claims: a test breaks them here. */
    volatile java.util.function.Consumer<JwtClaims> borrowedTokenClaims = claims -> { };
    volatile java.util.function.Consumer<JwtClaims> certificateClaims = claims -> { };

    private final Map<String, Lease> leases = new LinkedHashMap<>();
    private final Map<String, Activated> activations = new LinkedHashMap<>();
    private final Map<String, Response> replays = new HashMap<>();
    private final Map<String, Deque<Response>> canned = new HashMap<>();
    private int nextLease = 1;
    private int nextActivation = 1;

    private static final class Lease {
        final String id;
        final String install;
        Instant expiresAt;
        boolean borrowed;

        Lease(String id, String install, Instant expiresAt) {
            this.id = id;
            this.install = install;
            this.expiresAt = expiresAt;
        }
    }

    private static final class Activated {
        final String id;
        final String fingerprint;
        boolean ended;

        Activated(String id, String fingerprint) {
            this.id = id;
            this.fingerprint = fingerprint;
        }
    }

    @Override
    public synchronized Response send(Request request) throws IOException {
        if (down) throw new ConnectException("Connection refused (fake network down)");
        String path = request.uri().getPath();
        String route = route(request.method(), path);
        String id = path.replaceAll("^/v1/(seats|activations)/?", "").replaceAll("/[a-z]+$", "");
        calls.add(id.isEmpty() || route.equals("acquire") || route.equals("jwks") ? route : route + " " + id);
        if (request.body() != null) bodies.add(request.body());
        Deque<Response> queue = canned.get(route);
        if (queue != null && !queue.isEmpty()) {
            idempotencyKeys.add(request.header("Idempotency-Key").orElse(""));
            return queue.poll();
        }
        switch (route) {
            case "jwks": return jwks();
            case "acquire": return acquire(JsonObject.parse(request.body()));
            case "activate": return activate(request);
            default:
                if (!request.header("Authorization").orElse("").equals("License " + LICENSE_KEY)) {
                    return FakeSeatService.problem(401, "invalid-license", Map.of(), null);
                }
        }
        switch (route) {
            case "borrow": return borrow(id, JsonObject.parse(request.body()));
            case "release": return release(id);
            case "refresh": return refresh(id);
            case "deactivate": return deactivate(id);
            default: return FakeSeatService.problem(404, "not-found", Map.of(), null);
        }
    }

    private static String route(String method, String path) {
        if (path.equals("/.well-known/jwks.json")) return "jwks";
        if (path.equals("/v1/seats/acquire")) return "acquire";
        if (path.equals("/v1/activations")) return "activate";
        if (path.startsWith("/v1/activations/")) return method.equals("DELETE") ? "deactivate" : "refresh";
        if (path.endsWith("/borrow")) return "borrow";
        if (path.endsWith("/release")) return "release";
        return "unknown";
    }

    /** Queues a canned answer for the next call of {@code route} (acquire, borrow, release, activate, refresh, deactivate). */
    synchronized void answerNext(String route, Response response) {
        canned.computeIfAbsent(route, r -> new ArrayDeque<>()).add(response);
    }

    /** An administrator revokes the lease: free at once; a release then answers 404. */
    synchronized void revokeLease(String leaseId) {
        leases.remove(leaseId);
    }

    /** An administrator revokes the activation: the machine's next refresh answers 410. */
    synchronized void revokeActivation(String activationId) {
        activations.get(activationId).ended = true;
    }

    synchronized boolean leaseIsLive(String leaseId) {
        Lease lease = leases.get(leaseId);
        return lease != null && !now().isAfter(lease.expiresAt);
    }

    synchronized long activationsInUse() {
        return activations.values().stream().filter(a -> !a.ended).count();
    }

    private Response acquire(JsonObject body) {
        if (!body.getString("licenseKey").equals(LICENSE_KEY)) {
            return FakeSeatService.problem(401, "invalid-license", Map.of(), null);
        }
        if (model.equals("node-locked")) return wrongModel();
        String install = body.getString("clientInstanceId");
        for (Lease lease : leases.values()) {
            if (lease.install.equals(install) && !now().isAfter(lease.expiresAt)) return lease(200, lease);
        }
        Lease lease = new Lease("lease_" + nextLease++, install, now().plusSeconds(ttlSeconds));
        leases.put(lease.id, lease);
        return lease(201, lease);
    }

    private Response borrow(String leaseId, JsonObject body) {
        if (model.equals("node-locked")) return wrongModel();
        if (maxBorrowHours == 0) return FakeSeatService.problem(403, "borrowing-not-allowed", Map.of(), null);
        long hours = body.getLong("hours");
        if (hours < 1 || hours > maxBorrowHours) {
            return FakeSeatService.problem(400, "invalid-request",
                    Map.of("errors", List.of(Map.of("field", "hours", "message", "must be 1.." + maxBorrowHours))), null);
        }
        Lease lease = leases.get(leaseId);
        if (lease == null) return FakeSeatService.problem(404, "lease-not-found", Map.of(), null);
        if (now().isAfter(lease.expiresAt)) return FakeSeatService.problem(410, "lease-expired", Map.of(), null);
        Instant until = now().plus(Duration.ofHours(hours));
        if (until.isAfter(lease.expiresAt)) lease.expiresAt = until; // never shortened
        lease.borrowed = true;
        Response answer = lease(200, lease);
        Map<String, Object> json = parse(answer.body());
        json.put("borrowedUntil", lease.expiresAt.toString());
        return json(200, json);
    }

    private Response release(String leaseId) {
        Lease lease = leases.remove(leaseId);
        if (lease == null || now().isAfter(lease.expiresAt)) {
            return FakeSeatService.problem(404, "lease-not-found", Map.of(), null);
        }
        return new Response(204, Map.of(), "");
    }

    private Response activate(Request request) {
        String key = request.header("Idempotency-Key").orElse("");
        idempotencyKeys.add(key);
        if (replays.containsKey(key)) return replays.get(key);
        JsonObject body = JsonObject.parse(request.body());
        if (!body.getString("licenseKey").equals(LICENSE_KEY) || !body.getString("product").equals(PRODUCT)) {
            return FakeSeatService.problem(401, "invalid-license", Map.of(), null);
        }
        if (model.equals("floating")) return wrongModel();
        String fingerprint = body.getString("fingerprint");
        if (!fingerprint.matches("[A-Za-z0-9._:-]{16,128}")) {
            return FakeSeatService.problem(400, "invalid-request", Map.of("errors", List.of(Map.of("field", "fingerprint"))), null);
        }
        Response answer = activations.values().stream()
                .filter(a -> !a.ended && a.fingerprint.equals(fingerprint)).findFirst()
                .map(a -> activation(200, a)).orElse(null);
        if (answer == null) {
            if (activationsInUse() >= maxActivations) {
                return FakeSeatService.problem(409, "activations-exhausted",
                        Map.of("activationsInUse", activationsInUse(), "maxActivations", maxActivations), null);
            }
            Activated fresh = new Activated(String.format("act_%032x", nextActivation++), fingerprint);
            activations.put(fresh.id, fresh);
            answer = activation(201, fresh);
        }
        replays.put(key, answer);
        return answer;
    }

    private Response refresh(String activationId) {
        Activated activation = activations.get(activationId);
        if (activation == null) return FakeSeatService.problem(404, "activation-not-found", Map.of(), null);
        if (activation.ended) return FakeSeatService.problem(410, "activation-ended", Map.of(), null);
        return activation(200, activation);
    }

    private Response deactivate(String activationId) {
        Activated activation = activations.get(activationId);
        if (activation == null) return FakeSeatService.problem(404, "activation-not-found", Map.of(), null);
        if (activation.ended) return FakeSeatService.problem(410, "activation-ended", Map.of(), null);
        activation.ended = true;
        return new Response(204, Map.of(), "");
    }

    private Response wrongModel() {
        return FakeSeatService.problem(409, "wrong-license-model", Map.of("model", model), null);
    }

    private Response jwks() {
        return new Response(200, Map.of("Content-Type", List.of("application/json")),
                new JsonWebKeySet(List.of((JsonWebKey) mint.key)).toJson());
    }

    private Response lease(int status, Lease lease) {
        JwtClaims claims = TokenMint.claims(lease.id, PRODUCT, ISSUER, lease.expiresAt);
        claims.setIssuedAt(NumericDate.fromSeconds(now().getEpochSecond()));
        if (lease.borrowed) {
            claims.setClaim("bor", true);
            borrowedTokenClaims.accept(claims);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("leaseId", lease.id);
        body.put("token", mint.sign(claims));
        body.put("expiresAt", lease.expiresAt.toString());
        body.put("ttlSeconds", Math.max(1, Duration.between(now(), lease.expiresAt).toSeconds()));
        body.put("renewAfterSeconds", 40);
        body.put("seatsInUse", leases.size());
        body.put("maxSeats", 2);
        return json(status, body);
    }

    /** Every activation answer: a fresh certificate, {@code exp = iat + offlineDays}, refresh after a third of it, 24 h at most. */
    private Response activation(int status, Activated activation) {
        Instant expiresAt = now().plus(Duration.ofDays(offlineDays));
        Duration third = Duration.ofDays(offlineDays).dividedBy(3);
        Instant revalidateAfter = now().plus(third.compareTo(Duration.ofHours(24)) < 0 ? third : Duration.ofHours(24));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("activationId", activation.id);
        body.put("certificate", certificate(activation, expiresAt));
        if (!shortActivationBody) {
            body.put("fingerprint", activation.fingerprint);
            body.put("activatedAt", START.toString());
            body.put("expiresAt", expiresAt.toString());
        }
        body.put("revalidateAfter", revalidateAfter.toString());
        body.put("activationsInUse", activationsInUse());
        body.put("maxActivations", maxActivations);
        Map<String, List<String>> headers = new HashMap<>(Map.of("Content-Type", List.of("application/json")));
        if (status == 201) headers.put("Location", List.of("/v1/activations/" + activation.id));
        return new Response(status, headers, JsonUtil.toJson(body));
    }

    private String certificate(Activated activation, Instant expiresAt) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setAudience(PRODUCT);
        claims.setSubject(activation.fingerprint);
        claims.setClaim("aid", activation.id);
        claims.setClaim("lic", "lic_1");
        claims.setIssuedAt(NumericDate.fromSeconds(now().getEpochSecond()));
        claims.setExpirationTime(NumericDate.fromSeconds(expiresAt.getEpochSecond()));
        certificateClaims.accept(claims);
        return mint.sign(claims, AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256, mint.key.getPrivateKey(),
                "activation+jwt");
    }

    private static Map<String, Object> parse(String json) {
        try {
            return JsonUtil.parseJson(json);
        } catch (org.jose4j.lang.JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Response json(int status, Map<String, Object> body) {
        return new Response(status, Map.of("Content-Type", List.of("application/json")), JsonUtil.toJson(body));
    }

    /** Ids of the activations still live, oldest first. */
    synchronized List<String> liveActivations() {
        return activations.values().stream().filter(a -> !a.ended).map(a -> a.id).collect(Collectors.toList());
    }

    private Instant now() {
        java.time.Clock clock = following;
        return clock != null ? clock.instant() : now;
    }
}
