package dev.keyright.client;

import org.jose4j.json.JsonUtil;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwt.JwtClaims;

/**
 * The server side of the wire contract, in memory, as a {@link Transport}: acquire (with the
 * clientInstanceId rule and idempotent replay), renew, release, pool and JWKS. Time does not pass
 * here: leases live until a test expires or frees them. Tests can queue canned answers per route,
 * make the network fail, lose the answer of an acquire that was granted, or change how tokens are signed.
 */
final class FakeSeatService implements Transport {

    static final String PRODUCT = "acme-studio";
    static final String LICENSE_KEY = "ACME-STU-7F3K";
    static final String ISSUER = "https://keyright.test";
    static final Instant NOW = Instant.parse("2026-11-13T14:30:05Z");

    final TokenMint mint = new TokenMint("key-1");
    final List<TokenMint> published = Collections.synchronizedList(new ArrayList<>(List.of(mint)));
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final List<String> idempotencyKeys = Collections.synchronizedList(new ArrayList<>());
    final List<String> clientInstanceIds = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger jwksFetches = new AtomicInteger();
    volatile int maxSeats = 2;
    volatile long ttlSeconds = 120;
    volatile long renewAfterSeconds = 40;
    volatile long retryAfterSeconds = 1;
    volatile boolean down;
    /** Answers of granted acquires that never reached the client: the connection dropped after the commit. */
    final List<Response> lostAnswers = Collections.synchronizedList(new ArrayList<>());
    private boolean loseNextGrant;
    /** How each granted lease's token is made: (leaseId, expiresAt) -> compact JWS. */
    volatile BiFunction<String, Instant, String> tokens =
            (leaseId, expiresAt) -> mint.sign(TokenMint.claims(leaseId, PRODUCT, ISSUER, expiresAt));

    /**
     * API v2 "Waiting for a seat": an acquire with {@code Prefer: wait=N} on a full pool joins the queue
     * and is held. Off by default: then the fake is an older server that ignores {@code Prefer}.
     */
    volatile boolean queueing;
    /** The fake time a hold lets pass (its N seconds) when no seat is granted during it; none when null. */
    volatile ManualTime clock;
    /** Runs during each hold that starts on a full pool, with the hold's count from 1: a test frees seats here. */
    volatile java.util.function.IntConsumer duringHold = hold -> { };
    /** The {@code Prefer} header of each acquire, or "" when it had none. */
    final List<String> prefers = Collections.synchronizedList(new ArrayList<>());
    /** The timeout each acquire was sent with. */
    final List<java.time.Duration> acquireTimeouts = Collections.synchronizedList(new ArrayList<>());
    /** Installs waiting for a seat, oldest first. */
    private final List<String> queue = new ArrayList<>();
    private int holds;

    private final Map<String, String> live = new LinkedHashMap<>();
    /** Installs an administrator blocked, until when (API v2 "a revoke that sticks"). */
    private final Map<String, Instant> blocked = new HashMap<>();
    private final Set<String> gone = new HashSet<>();
    private final Map<String, Response> replays = new HashMap<>();
    private final Map<String, Deque<Response>> canned = new HashMap<>();
    private int nextLease = 1;

    @Override
    public synchronized Response send(Request request) throws IOException {
        if (down) throw new ConnectException("Connection refused (fake network down)");
        String path = request.uri().getPath();
        if (path.equals("/.well-known/jwks.json")) return jwks();
        if (path.startsWith("/v1/seats/queue/") && request.method().equals("DELETE")) {
            return leaveQueue(request, path.substring("/v1/seats/queue/".length()));
        }
        String route = path.equals("/v1/seats/acquire") ? "acquire" : path.equals("/v1/seats/pool") ? "pool"
                : path.endsWith("/renew") ? "renew" : path.endsWith("/release") ? "release" : "unknown";
        if (route.equals("acquire")) {
            prefers.add(request.header("Prefer").orElse(""));
            acquireTimeouts.add(request.timeout());
        }
        String leaseId = path.startsWith("/v1/seats/") ? path.substring(10).replaceAll("/[a-z]+$", "") : "";
        calls.add(route.equals("renew") || route.equals("release") ? route + " " + leaseId : route);
        Deque<Response> queue = canned.get(route);
        if (queue != null && !queue.isEmpty()) {
            if (route.equals("acquire")) idempotencyKeys.add(request.header("Idempotency-Key").orElse(""));
            return queue.poll();
        }
        if (!route.equals("acquire") && !request.header("Authorization").orElse("").equals("License " + LICENSE_KEY)) {
            return problem(401, "invalid-license", Map.of(), null);
        }
        switch (route) {
            case "acquire": return acquire(request);
            case "renew": return renew(leaseId);
            case "release": return release(leaseId);
            case "pool": return pool();
            default: return problem(404, "not-found", Map.of(), null);
        }
    }

    /** Queues a canned answer for the next call of {@code route} (acquire, renew, release, pool). */
    synchronized void answerNext(String route, Response response) {
        canned.computeIfAbsent(route, r -> new ArrayDeque<>()).add(response);
    }

    /**
     * The next acquire that is granted commits its seat and its idempotency record, then the connection
     * drops before the answer is sent, as when a node dies or a balancer times out right after the commit.
     */
    synchronized void loseTheAnswerToTheNextGrant() {
        loseNextGrant = true;
    }

    synchronized String holdSeatFor(String clientInstanceId) {
        String leaseId = "lease_" + nextLease++;
        live.put(leaseId, clientInstanceId);
        return leaseId;
    }

    synchronized void free(String leaseId) {
        live.remove(leaseId);
    }

    /** The server reaped or revoked the lease: renewing it now answers 410. */
    synchronized void expire(String leaseId) {
        live.remove(leaseId);
        gone.add(leaseId);
    }

    /** An administrator revoked the install's lease and blocked the install: its acquires answer 403 install-blocked. */
    synchronized void revokeAndBlock(String leaseId, Instant until) {
        String cid = live.get(leaseId);
        expire(leaseId);
        blocked.put(cid, until);
    }

    synchronized Set<String> liveLeases() {
        return Set.copyOf(live.keySet());
    }

    private Response acquire(Request request) throws IOException {
        String key = request.header("Idempotency-Key").orElse(null);
        idempotencyKeys.add(key == null ? "" : key);
        if (key != null && replays.containsKey(key)) return replayed(replays.get(key));
        JsonObject body = JsonObject.parse(request.body());
        if (!body.getString("licenseKey").equals(LICENSE_KEY) || !body.getString("product").equals(PRODUCT)) {
            return problem(401, "invalid-license", Map.of(), null);
        }
        String cid = body.getString("clientInstanceId");
        clientInstanceIds.add(cid);
        if (blocked.containsKey(cid)) {
            return problem(403, "install-blocked", Map.of("blockedUntil", blocked.get(cid).toString()), 3600L);
        }
        String held = live.entrySet().stream().filter(e -> e.getValue().equals(cid)).map(Map.Entry::getKey)
                .findFirst().orElse(null);
        Response response;
        int hold = queueing ? preferredWait(request) : 0;
        if (held != null) {
            response = lease(200, held);
        } else if (!admits(cid) && hold == 0) {
            return problem(409, "seats-exhausted", Map.of("seatsInUse", live.size(), "maxSeats", maxSeats),
                    retryAfterSeconds);
        } else if (!admits(cid)) {
            if (!queue.contains(cid)) queue.add(cid);
            duringHold.accept(++holds);
            if (!admits(cid)) {
                if (clock != null) clock.stall(java.time.Duration.ofSeconds(hold));
                return problem(409, "seats-exhausted", Map.of("seatsInUse", live.size(), "maxSeats", maxSeats,
                        "queuePosition", queue.indexOf(cid) + 1), 0L);
            }
            queue.remove(cid);
            response = held(lease(201, holdSeatFor(cid)), hold);
        } else {
            queue.remove(cid);
            response = lease(201, holdSeatFor(cid));
        }
        if (key != null) replays.put(key, response);
        if (loseNextGrant) {
            loseNextGrant = false;
            lostAnswers.add(response);
            throw new IOException("fake connection dropped after the acquire was committed");
        }
        return response;
    }

    /** Puts another install in the queue, behind those already in it. */
    synchronized void queueUp(String clientInstanceId) {
        queue.add(clientInstanceId);
    }

    synchronized void leaveQueue(String clientInstanceId) {
        queue.remove(clientInstanceId);
    }

    synchronized List<String> queue() {
        return List.copyOf(queue);
    }

    /** Fairness: a free seat goes to the oldest entry of the queue; others wait while free seats ≤ entries ahead. */
    private boolean admits(String cid) {
        int ahead = queue.contains(cid) ? queue.indexOf(cid) : queue.size();
        return maxSeats - live.size() > ahead;
    }

    private static int preferredWait(Request request) {
        String prefer = request.header("Prefer").orElse("").trim();
        return prefer.matches("wait=\\d{1,2}") ? Math.min(60, Integer.parseInt(prefer.substring(5))) : 0;
    }

    private static Response held(Response granted, int hold) {
        Map<String, List<String>> headers = new HashMap<>(granted.headers());
        headers.put("Preference-Applied", List.of("wait=" + hold));
        Map<String, Object> body = new LinkedHashMap<>(parse(granted.body()));
        body.put("waitedMillis", 0L); // granted during the hold, before the fake's time moved on
        return new Response(granted.status(), headers, JsonUtil.toJson(body));
    }

    private static Map<String, Object> parse(String json) {
        try {
            return JsonUtil.parseJson(json);
        } catch (org.jose4j.lang.JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private Response leaveQueue(Request request, String cid) {
        calls.add("leave-queue " + cid);
        if (!request.header("Authorization").orElse("").equals("License " + LICENSE_KEY)) {
            return problem(401, "invalid-license", Map.of(), null);
        }
        if (!queueing) return problem(404, "not-found", Map.of(), null);
        queue.remove(cid);
        return new Response(204, Map.of(), "");
    }

    /** The stored answer byte for byte, saying it is a replay, as the server's Idempotency-Key filter does. */
    private static Response replayed(Response stored) {
        Map<String, List<String>> headers = new HashMap<>(stored.headers());
        headers.put("Idempotent-Replayed", List.of("true"));
        return new Response(stored.status(), headers, stored.body());
    }

    private Response renew(String leaseId) {
        if (live.containsKey(leaseId)) return lease(200, leaseId);
        return gone.contains(leaseId) ? problem(410, "lease-expired", Map.of(), null)
                : problem(404, "lease-not-found", Map.of(), null);
    }

    private Response release(String leaseId) {
        if (live.remove(leaseId) == null) return problem(404, "lease-not-found", Map.of(), null);
        gone.add(leaseId);
        return new Response(204, Map.of(), "");
    }

    private Response pool() {
        // an install whose id starts with "unnamed-" said neither user nor host: the server sends null for both
        List<Map<String, Object>> holders = live.values().stream().map(cid -> {
            Map<String, Object> holder = new java.util.LinkedHashMap<>();
            holder.put("user", cid.startsWith("unnamed-") ? null : "r.okafor");
            holder.put("host", cid.startsWith("unnamed-") ? null : "lab-ws-14");
            holder.put("acquiredAt", NOW.minusSeconds(60).toString());
            holder.put("expiresAt", NOW.plusSeconds(ttlSeconds).toString());
            return holder;
        }).collect(Collectors.toList());
        return json(200, Map.of("product", PRODUCT, "inUse", live.size(), "max", maxSeats, "holders", holders));
    }

    private Response jwks() {
        jwksFetches.incrementAndGet();
        List<JsonWebKey> keys = published.stream().map(m -> (JsonWebKey) m.key).collect(Collectors.toList());
        return new Response(200, Map.of("Content-Type", List.of("application/json")), new JsonWebKeySet(keys).toJson());
    }

    private Response lease(int status, String leaseId) {
        Instant expiresAt = NOW.plusSeconds(ttlSeconds);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("leaseId", leaseId);
        body.put("token", tokens.apply(leaseId, expiresAt));
        body.put("expiresAt", expiresAt.toString());
        body.put("ttlSeconds", ttlSeconds);
        body.put("renewAfterSeconds", renewAfterSeconds);
        body.put("seatsInUse", live.size());
        body.put("maxSeats", maxSeats);
        return json(status, body);
    }

    static Response problem(int status, String slug, Map<String, Object> members, Long retryAfterSeconds) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "https://keyright.dev/problems/" + slug);
        body.put("title", slug);
        body.put("status", status);
        body.put("detail", "fake " + slug);
        body.putAll(members);
        Map<String, List<String>> headers = new HashMap<>();
        headers.put("Content-Type", List.of("application/problem+json"));
        if (retryAfterSeconds != null) headers.put("Retry-After", List.of(String.valueOf(retryAfterSeconds)));
        return new Response(status, headers, JsonUtil.toJson(body));
    }

    private static Response json(int status, Map<String, Object> body) {
        return new Response(status, Map.of("Content-Type", List.of("application/json")), JsonUtil.toJson(body));
    }

    /** Claims as the server would put them, for tests that sign tokens of their own. */
    static JwtClaims claimsFor(String leaseId, Instant expiresAt) {
        return TokenMint.claims(leaseId, PRODUCT, ISSUER, expiresAt);
    }
}
