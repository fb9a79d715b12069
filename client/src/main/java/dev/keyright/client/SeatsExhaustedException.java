package dev.keyright.client;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/** Every seat of the license is held: a normal state of a full pool, not a fault (409 seats-exhausted). */
public class SeatsExhaustedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final int seatsInUse;
    private final int maxSeats;
    private final Duration retryAfter;
    private final int queuePosition;

    public SeatsExhaustedException(String message, int seatsInUse, int maxSeats, Duration retryAfter) {
        this(message, seatsInUse, maxSeats, retryAfter, OptionalInt.empty());
    }

    /**
     * @param queuePosition this install's place in the license's queue (1 = next in line), when the
     *                      request was held with {@code Prefer: wait} by a server that queues
     */
    public SeatsExhaustedException(String message, int seatsInUse, int maxSeats, Duration retryAfter,
                                   OptionalInt queuePosition) {
        super(message, 409, Problems.TYPE_PREFIX + "seats-exhausted", null);
        this.seatsInUse = seatsInUse;
        this.maxSeats = maxSeats;
        this.retryAfter = retryAfter;
        this.queuePosition = queuePosition.orElse(0);
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

    /**
     * This install's place in the queue (1 = next in line), when the server held the request in its
     * queue ({@code Prefer: wait}); empty from a server that does not queue, or for a plain acquire.
     */
    public OptionalInt queuePosition() {
        return queuePosition > 0 ? OptionalInt.of(queuePosition) : OptionalInt.empty();
    }
}
