package dev.keyright.client;

import java.time.Duration;
import java.util.Optional;

/**
 * The call failed for a reason that may pass: a network error, a timeout, a 5xx, 503
 * service-unavailable or 409 request-in-progress. Nothing was granted or lost by it: a lease
 * already held stays valid until its own expiry.
 */
public class TransientException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public TransientException(String message, int status, String problemType, Duration retryAfter, Throwable cause) {
        super(message, status, problemType, cause);
        this.retryAfter = retryAfter;
    }

    public TransientException(String message, Throwable cause) {
        this(message, 0, null, null, cause);
    }

    /** The server's {@code Retry-After}, when it sent one. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
