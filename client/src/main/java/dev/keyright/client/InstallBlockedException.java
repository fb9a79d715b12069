package dev.keyright.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * An administrator revoked this install's seat and blocked the install (403 install-blocked): the server
 * refuses it a seat until {@link #blockedUntil()}. Final, like a suspended license: the SDK does not wait or
 * acquire again on it, and a keep-alive that meets it declares the seat {@link SeatState#LOST}.
 */
public class InstallBlockedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final Instant blockedUntil;
    private final Duration retryAfter;

    public InstallBlockedException(String message, int status, String problemType, Instant blockedUntil, Duration retryAfter) {
        super(message, status, problemType, null);
        this.blockedUntil = blockedUntil;
        this.retryAfter = retryAfter;
    }

    /** When the block ends, as the server said (its clock). */
    public Optional<Instant> blockedUntil() {
        return Optional.ofNullable(blockedUntil);
    }

    /** How long the block still lasts, from the server's {@code Retry-After}. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
