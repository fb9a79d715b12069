package dev.keyright.seats.problems;

import jakarta.ejb.ApplicationException;
import java.util.Map;
import java.util.Optional;

/**
 * A refusal the business rules make: an expected answer, not a fault. Rolls the transaction back,
 * is answered as {@code application/problem+json} by one mapper, and is never logged with a stack trace.
 * It names its kind and carries its facts; {@link ProblemTypes} says what HTTP makes of it.
 */
@ApplicationException(rollback = true, inherited = true)
public abstract class BusinessException extends RuntimeException {

    private final String type;

    /** A refusal of kind {@code type} (a slug of {@link ProblemTypes}), with a detail for the client. */
    protected BusinessException(String type, String detail) {
        super(detail, null, false, false);
        this.type = type;
        ProblemTypes.of(type);
    }

    /** The HTTP status, from the one table. */
    public int status() { return ProblemTypes.of(type).status(); }

    /** The slug of the problem type URI {@code https://keyright.dev/problems/<slug>}. */
    public String type() { return type; }

    public String title() { return ProblemTypes.of(type).title(); }

    public String detail() { return getMessage(); }

    /** Extension members of the problem document. */
    public Map<String, Object> members() {
        return Map.of();
    }

    /** Seconds after which a retry may succeed, sent as {@code Retry-After}. */
    public Optional<Integer> retryAfterSeconds() {
        return Optional.empty();
    }

    /** The headers that go with this kind of refusal, e.g. {@code WWW-Authenticate}. */
    public Map<String, String> headers() {
        return ProblemTypes.of(type).headers();
    }
}
