package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.problems.BusinessException;
import java.util.Optional;

/** Too many invalid license keys (or admin passwords) from this address; retry after the given seconds. */
public class TooManyAttemptsException extends BusinessException {

    private final int retryAfter;

    public TooManyAttemptsException(int retryAfterSeconds) {
        this("license keys", retryAfterSeconds);
    }

    private TooManyAttemptsException(String what, int retryAfterSeconds) {
        super("too-many-attempts", "Too many invalid " + what + " from this address. Retry after " + retryAfterSeconds + " seconds.");
        this.retryAfter = retryAfterSeconds;
    }

    public static TooManyAttemptsException adminCredentials(int retryAfterSeconds) {
        return new TooManyAttemptsException("admin credentials", retryAfterSeconds);
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
