package dev.keyright.seats.problems;

import java.util.Map;

/**
 * The one table from a refusal's slug to what HTTP makes of it: status, title and the headers that go
 * with it. Exceptions name the condition and carry its facts; they know nothing of HTTP.
 */
public final class ProblemTypes {

    /** How one kind of refusal is answered. */
    public record Type(int status, String title, Map<String, String> headers) {
    }

    private static final Map<String, Type> TYPES = Map.ofEntries(
            Map.entry("invalid-request", new Type(400, "Invalid request", Map.of())),
            Map.entry("invalid-path", new Type(400, "Invalid path", Map.of())),
            Map.entry("invalid-license", new Type(401, "Invalid license", Map.of("WWW-Authenticate", "License realm=\"keyright\""))),
            Map.entry("license-suspended", new Type(403, "License suspended", Map.of())),
            Map.entry("install-blocked", new Type(403, "Install blocked", Map.of())),
            Map.entry("license-not-found", new Type(404, "License not found", Map.of())),
            Map.entry("lease-not-found", new Type(404, "Lease not found", Map.of())),
            Map.entry("seats-exhausted", new Type(409, "All seats are in use", Map.of())),
            Map.entry("user-limit-reached", new Type(409, "Seat limit per user reached", Map.of())),
            Map.entry("host-limit-reached", new Type(409, "Seat limit per host reached", Map.of())),
            Map.entry("lease-expired", new Type(410, "Lease expired", Map.of())),
            Map.entry("idempotency-key-reused", new Type(422, "Idempotency key reused", Map.of())),
            Map.entry("too-many-attempts", new Type(429, "Too many attempts", Map.of())),
            Map.entry("service-unavailable", new Type(503, "Service unavailable", Map.of())),
            Map.entry("signed-out", new Type(401, "Signed out", Map.of("Cache-Control", "no-store"))),
            Map.entry("borrowing-not-allowed", new Type(403, "Borrowing not allowed", Map.of())),
            Map.entry("wrong-license-model", new Type(409, "Wrong license model", Map.of())),
            Map.entry("activations-exhausted", new Type(409, "All activations are in use", Map.of())),
            Map.entry("activation-not-found", new Type(404, "Activation not found", Map.of())),
            Map.entry("activation-ended", new Type(410, "Activation ended", Map.of())));

    private ProblemTypes() {
    }

    /** Every slug a refusal of the application may carry. */
    public static java.util.Set<String> slugs() {
        return TYPES.keySet();
    }

    /** The type of a slug; an unknown slug is a programming error, found by ProblemTypesTest. */
    public static Type of(String slug) {
        Type type = TYPES.get(slug);
        if (type == null) {
            throw new IllegalArgumentException("no problem type " + slug);
        }
        return type;
    }
}
