package dev.keyright.seats.problems;

import java.util.Optional;

/** The database is unreachable or a lock could not be had in time. Nothing was granted or changed. */
public class ServiceUnavailableException extends BusinessException {

    private final int retryAfter;

    public ServiceUnavailableException(String detail, int retryAfterSeconds) {
        super("service-unavailable", detail);
        this.retryAfter = retryAfterSeconds;
    }

    /** A row lock that could not be had in time, or a deadlock retried to its bound: try again in a second. */
    public static ServiceUnavailableException leaseBusy() {
        return new ServiceUnavailableException("The lease is busy; nothing was changed. Retry shortly.", 1);
    }

    /**
     * The license's lock could not be had in time, or a deadlock was retried to its bound, so nothing was
     * {@code notDone} (granted, activated): try again in a second.
     */
    public static ServiceUnavailableException licenseBusy(String notDone) {
        return new ServiceUnavailableException("The license is busy; nothing was " + notDone + ". Retry shortly.", 1);
    }

    /** The database cannot be reached: try again in two seconds, when a pool may have reconnected. */
    public static ServiceUnavailableException databaseDown() {
        return new ServiceUnavailableException("The license database is unavailable; nothing was changed.", 2);
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
