package dev.keyright.client;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;

/**
 * The online half of node-locked activations: activate this machine, refresh its certificate, deactivate it.
 * Each certificate that arrives is verified with the JWKS fetched for it and kept in the offline store with it;
 * an activation the server says has ended (410) or never existed (404) is deleted from the store, because this
 * machine is no longer licensed once it knows.
 */
final class Activations {

    private static final Pattern FINGERPRINT = Pattern.compile("[A-Za-z0-9._:-]{16,128}");

    private final SeatEndpoints endpoints;
    private final OfflineLicense offline;
    private final TransientRetry retry;
    private final Map<String, String> metadata;

    Activations(SeatEndpoints endpoints, OfflineLicense offline, TransientRetry retry, Map<String, String> metadata) {
        this.endpoints = endpoints;
        this.offline = offline;
        this.retry = retry;
        this.metadata = metadata;
    }

    static String requireValidFingerprint(String fingerprint) {
        if (fingerprint == null || !FINGERPRINT.matcher(fingerprint).matches()) {
            throw new IllegalArgumentException("A fingerprint is 16..128 characters of [A-Za-z0-9._:-]");
        }
        return fingerprint;
    }

    /**
     * One logical activation under one fresh {@code Idempotency-Key}, retried through transient failures with
     * that same key, so a lost answer never costs a second slot. A certificate this machine cannot use yet (its
     * clock behind the server's) is not kept, but the slot is: it is this machine's, and activating again once
     * the clock is right gets the same activation back.
     */
    Activation activate(String fingerprint) {
        requireValidFingerprint(fingerprint);
        String jwks = offline.embedsKey() ? null : endpoints.jwks();
        String idempotencyKey = UUID.randomUUID().toString();
        Transport.Response response = retry.call(() -> endpoints.activate(fingerprint, metadata, idempotencyKey));
        return offline.keepActivation(read(response.body(), fingerprint, null), jwks, null);
    }

    Activation refresh() {
        Activation stored = offline.stored().activated().map(OfflineState.Activated::activation).orElseThrow(() ->
                new OfflineLicenseNotFoundException(offline.product() + " is not activated on this machine"));
        String jwks = offline.embedsKey() ? null : endpoints.jwks();
        Transport.Response response;
        try {
            response = endpoints.refreshActivation(stored.activationId());
        } catch (ActivationEndedException | ActivationNotFoundException ended) {
            offline.forgetActivation(stored.activationId());
            throw ended;
        }
        Activation fresh = read(response.body(), stored.fingerprint(), stored.activationId());
        return offline.keepActivation(fresh, jwks, stored.activationId());
    }

    /**
     * Frees this machine's slot and deletes the certificate (an activation already ended counts as
     * deactivated). A call that fails (no network) keeps the certificate: the slot is still taken.
     *
     * @return false when this machine holds no activation in the store
     */
    boolean deactivate() {
        var stored = offline.stored().activated().map(OfflineState.Activated::activation);
        if (stored.isEmpty()) return false;
        endpoints.deactivate(stored.get().activationId());
        offline.forgetActivation(stored.get().activationId());
        return true;
    }

    /**
     * Reads an activation answer. {@code expiresAt} and {@code fingerprint} are checked when present and
     * otherwise taken from the request and the certificate's {@code exp} (verified right after).
     */
    private static Activation read(String body, String fingerprint, String activationId) {
        try {
            JsonObject json = JsonObject.parse(body);
            String answered = json.getString("activationId");
            if (activationId != null && !activationId.equals(answered)) {
                throw new LeaseVerificationException("The refresh of " + activationId + " answered for " + answered, null);
            }
            String answeredFingerprint = json.findString("fingerprint").orElse(fingerprint);
            if (!answeredFingerprint.equals(fingerprint)) {
                throw new LeaseVerificationException("The activation answered for fingerprint " + answeredFingerprint
                        + ", not " + fingerprint, null);
            }
            String certificate = json.getString("certificate");
            Instant expiresAt = json.findInstant("expiresAt").orElseGet(() -> unverifiedExpiry(certificate));
            return new Activation(answered, fingerprint, expiresAt, json.getInstant("revalidateAfter"),
                    json.getInt("activationsInUse"), json.getInt("maxActivations"), certificate);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new LeaseVerificationException("Unreadable activation from the server: " + e.getMessage(), e);
        }
    }

    private static Instant unverifiedExpiry(String certificate) {
        try {
            JsonWebSignature jws = new JsonWebSignature();
            jws.setCompactSerialization(certificate);
            return Instant.ofEpochSecond(JwtClaims.parse(jws.getUnverifiedPayload()).getExpirationTime().getValue());
        } catch (Exception e) {
            throw new IllegalArgumentException("the certificate has no readable exp", e);
        }
    }
}
