package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;
import java.util.Map;
import java.util.Optional;

/** Every seat is in use. A normal state of a full pool, not a fault. */
public class SeatsExhaustedException extends BusinessException {

    private final long seatsInUse;
    private final int maxSeats;
    private final int retryAfter;

    public SeatsExhaustedException(long seatsInUse, int maxSeats, int retryAfterSeconds) {
        super("seats-exhausted", "All " + maxSeats + " seats are in use (" + seatsInUse + " held). Retry later.");
        this.seatsInUse = seatsInUse;
        this.maxSeats = maxSeats;
        this.retryAfter = retryAfterSeconds;
    }

    @Override
    public Map<String, Object> members() {
        return Map.of("seatsInUse", seatsInUse, "maxSeats", maxSeats);
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
