package dev.keyright.client;

import org.jose4j.json.JsonUtil;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client half of the wire contract: one method per endpoint. Returns the 2xx response and
 * turns anything else into the typed exception; network failures become {@link TransientException}.
 */
final class SeatEndpoints {

    private static final String ACCEPT = "application/json, application/problem+json";

    private final Transport transport;
    private final String server;
    private final String product;
    private final String licenseKey;
    private final Duration timeout;

    SeatEndpoints(Transport transport, URI server, String product, String licenseKey, Duration timeout) {
        this.transport = transport;
        this.server = server.toString().replaceAll("/+$", "");
        this.product = product;
        this.licenseKey = licenseKey;
        this.timeout = timeout;
    }

    /**
     * @param hold how long the server may hold the request in the license's queue while the pool is
     *             full ({@code Prefer: wait}, whole seconds); {@link Duration#ZERO} for no hold. The
     *             request's timeout is the hold plus the normal one.
     */
    Transport.Response acquire(String clientInstanceId, Map<String, String> metadata, String idempotencyKey,
                               Duration hold) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("product", product);
        body.put("licenseKey", licenseKey);
        body.put("clientInstanceId", clientInstanceId);
        if (!metadata.isEmpty()) body.put("metadata", metadata);
        Map<String, String> headers = new LinkedHashMap<>(Map.of("Accept", ACCEPT, "Content-Type", "application/json",
                "Idempotency-Key", idempotencyKey));
        if (!hold.isZero()) headers.put("Prefer", "wait=" + hold.toSeconds());
        return exchange("POST", "/v1/seats/acquire", headers, JsonUtil.toJson(body), timeout.plus(hold));
    }

    /** Leaves the license's queue of installs waiting for a seat ({@code DELETE /v1/seats/queue/{id}}, 204). */
    void leaveQueue(String clientInstanceId) {
        exchange("DELETE", "/v1/seats/queue/" + segment(clientInstanceId), authorized(), null);
    }

    Transport.Response renew(String leaseId) {
        return exchange("POST", "/v1/seats/" + segment(leaseId) + "/renew", authorized(), null);
    }

    /**
     * Releases the lease; a lease that is already gone (404, 410) counts as released. Returns whether it was
     * still held: false when it had been released, reaped or revoked before (the seat is back in the pool either way).
     */
    boolean release(String leaseId) {
        try {
            exchange("POST", "/v1/seats/" + segment(leaseId) + "/release", authorized(), null);
            return true;
        } catch (LeaseNotFoundException | LeaseExpiredException alreadyGone) {
            return false;
        }
    }

    /** Takes the lease off the network for {@code hours} ({@code POST /v1/seats/{id}/borrow}, 200). */
    Transport.Response borrow(String leaseId, long hours) {
        return exchange("POST", "/v1/seats/" + segment(leaseId) + "/borrow", authorizedJson(),
                JsonUtil.toJson(Map.of("hours", hours)));
    }

    /** Activates this machine ({@code POST /v1/activations}: 201 new, 200 the same fingerprint's). */
    Transport.Response activate(String fingerprint, Map<String, String> metadata, String idempotencyKey) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("product", product);
        body.put("licenseKey", licenseKey);
        body.put("fingerprint", fingerprint);
        if (!metadata.isEmpty()) body.put("metadata", metadata);
        return exchange("POST", "/v1/activations", Map.of("Accept", ACCEPT, "Content-Type", "application/json",
                "Idempotency-Key", idempotencyKey), JsonUtil.toJson(body));
    }

    /** A new certificate for the activation ({@code POST /v1/activations/{id}/refresh}, 200). */
    Transport.Response refreshActivation(String activationId) {
        return exchange("POST", "/v1/activations/" + segment(activationId) + "/refresh", authorized(), null);
    }

    /**
     * Frees the activation's slot ({@code DELETE /v1/activations/{id}}, 204). An activation already ended or
     * unknown (410, 404) counts as deactivated; answers whether it was still live.
     */
    boolean deactivate(String activationId) {
        try {
            exchange("DELETE", "/v1/activations/" + segment(activationId), authorized(), null);
            return true;
        } catch (ActivationEndedException | ActivationNotFoundException alreadyGone) {
            return false;
        }
    }

    Transport.Response pool() {
        return exchange("GET", "/v1/seats/pool?product=" + URLEncoder.encode(product, StandardCharsets.UTF_8),
                authorized(), null);
    }

    String jwks() {
        return exchange("GET", "/.well-known/jwks.json", Map.of("Accept", "application/json"), null).body();
    }

    private Map<String, String> authorized() {
        return Map.of("Accept", ACCEPT, "Authorization", "License " + licenseKey);
    }

    private Map<String, String> authorizedJson() {
        return Map.of("Accept", ACCEPT, "Authorization", "License " + licenseKey, "Content-Type", "application/json");
    }

    private Transport.Response exchange(String method, String path, Map<String, String> headers, String body) {
        return exchange(method, path, headers, body, timeout);
    }

    private Transport.Response exchange(String method, String path, Map<String, String> headers, String body,
                                        Duration requestTimeout) {
        Transport.Request request = new Transport.Request(method, URI.create(server + path), headers, body,
                requestTimeout);
        Transport.Response response;
        try {
            response = transport.send(request);
        } catch (IOException e) {
            throw new TransientException("Cannot reach the license server: " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyrightException("Interrupted while calling the license server", e);
        }
        if (response.status() / 100 != 2) throw Problems.toException(response);
        return response;
    }

    private static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) return "connecting timed out";
        if (e instanceof HttpTimeoutException) return "no answer in time";
        if (e instanceof ConnectException) return "connection refused";
        if (e instanceof UnknownHostException) return "unknown host " + e.getMessage();
        return e.getMessage() == null ? "network error" : e.getMessage();
    }
}
