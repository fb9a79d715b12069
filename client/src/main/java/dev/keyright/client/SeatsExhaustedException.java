package dev.keyright.client;

import java.time.Duration;
import java.util.Optional;

/** Every seat of the license is held: a normal state of a full pool, not a fault (409 seats-exhausted). */
public class SeatsExhaustedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final int seatsInUse;
    private final int maxSeats;
    private final Duration retryAfter;

    public SeatsExhaustedException(String message, int seatsInUse, int maxSeats, Duration retryAfter) {
        super(message, 409, Problems.TYPE_PREFIX + "seats-exhausted", null);
        this.seatsInUse = seatsInUse;
        this.maxSeats = maxSeats;
        this.retryAfter = retryAfter;
    }

    public int seatsInUse() {
        return seatsInUse;
    }

    public int maxSeats() {
        return maxSeats;
    }

    /** The server's {@code Retry-After}, when it sent one. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
