package dev.keyright.seats.problems;

import jakarta.ejb.ApplicationException;
import java.util.Map;
import java.util.Optional;

/**
 * A refusal the business rules make: an expected answer, not a fault. Rolls the transaction back,
 * is answered as {@code application/problem+json} by one mapper, and is never logged with a stack trace.
 */
@ApplicationException(rollback = true, inherited = true)
public abstract class BusinessException extends RuntimeException {

    private final int status;
    private final String type;
    private final String title;

    protected BusinessException(int status, String type, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
    }

    public int status() { return status; }

    /** The slug of the problem type URI {@code https://keyright.dev/problems/<slug>}. */
    public String type() { return type; }

    public String title() { return title; }

    public String detail() { return getMessage(); }

    /** Extension members of the problem document. */
    public Map<String, Object> members() {
        return Map.of();
    }

    /** Seconds after which a retry may succeed, sent as {@code Retry-After}. */
    public Optional<Integer> retryAfterSeconds() {
        return Optional.empty();
    }

    /** Extra response headers, e.g. {@code WWW-Authenticate}. */
    public Map<String, String> headers() {
        return Map.of();
    }
}
