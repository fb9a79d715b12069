package dev.keyright.client;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * This machine's activation of a node-locked license, with its certificate. The activation itself does not
 * expire (only a deactivation or an administrator's revoke ends it); the certificate's {@code expiresAt} bounds
 * how long the machine may run without reaching the server, and is pushed out by each refresh.
 *
 * @param activationId     the server's id ({@code act_} and 32 hex digits)
 * @param fingerprint      the machine fingerprint it was activated for (the certificate's {@code sub})
 * @param expiresAt        the certificate's signed {@code exp}: usable offline up to and including this instant
 * @param revalidateAfter  when to refresh the certificate ({@link ActivationKeeper} does it then)
 * @param activationsInUse live activations of the license, as the server counted at the last activate or refresh
 * @param maxActivations   the license's activations, likewise
 * @param certificate      the compact JWS, {@code typ: activation+jwt}
 */
public record Activation(String activationId, String fingerprint, Instant expiresAt, Instant revalidateAfter,
                         int activationsInUse, int maxActivations, String certificate) {

    /** Its facts as JSON members (times as RFC 3339), without the certificate: what the store and the CLI write. */
    public Map<String, Object> facts() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("activationId", activationId);
        json.put("fingerprint", fingerprint);
        json.put("expiresAt", expiresAt.toString());
        json.put("revalidateAfter", revalidateAfter.toString());
        json.put("activationsInUse", activationsInUse);
        json.put("maxActivations", maxActivations);
        return json;
    }

    @Override
    public String toString() {
        return "Activation[" + activationId + ", fingerprint " + fingerprint + ", offline until " + expiresAt
                + ", revalidate after " + revalidateAfter + ", " + activationsInUse + "/" + maxActivations + "]";
    }
}
