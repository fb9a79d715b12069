package dev.keyright.seats.problems;

import java.util.Optional;

/** The database is unreachable or a lock could not be had in time. Nothing was granted or changed. */
public class ServiceUnavailableException extends BusinessException {

    private final int retryAfter;

    public ServiceUnavailableException(String detail, int retryAfterSeconds) {
        super("service-unavailable", detail);
        this.retryAfter = retryAfterSeconds;
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
