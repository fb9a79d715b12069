package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * No seat for this install now: every seat is in use, or the free ones belong to installs ahead of it in the
 * line. A normal state of a full pool, not a fault.
 */
public class SeatsExhaustedException extends BusinessException {

    private final long seatsInUse;
    private final int maxSeats;
    private final int retryAfter;
    private final Integer queuePosition;

    private SeatsExhaustedException(String detail, long seatsInUse, int maxSeats, int retryAfterSeconds, Integer queuePosition) {
        super("seats-exhausted", detail);
        this.seatsInUse = seatsInUse;
        this.maxSeats = maxSeats;
        this.retryAfter = retryAfterSeconds;
        this.queuePosition = queuePosition;
    }

    /** Refused without waiting: come back after {@code retryAfterSeconds}, when a seat can first free up. */
    public static SeatsExhaustedException full(long seatsInUse, int maxSeats, int queued, int retryAfterSeconds) {
        String detail = seatsInUse >= maxSeats
                ? "All " + maxSeats + " seats are in use (" + seatsInUse + " held). Retry later."
                : (maxSeats - seatsInUse) + " of " + maxSeats + " seats are free, and " + queued
                        + " waiting installs are ahead in the queue. Retry later, or wait with Prefer: wait=N.";
        return new SeatsExhaustedException(detail, seatsInUse, maxSeats, retryAfterSeconds, null);
    }

    /** A held request ran out of time; the install keeps its place ({@code position}, 1 = next) if it asks again at once. */
    public static SeatsExhaustedException stillQueued(long seatsInUse, int maxSeats, int position) {
        return new SeatsExhaustedException("No seat freed up for this install while it waited; it is number " + position
                + " in the queue and keeps that place if it asks again now.", seatsInUse, maxSeats, 0, position);
    }

    /** A held request whose place was given up (the install left the queue, or stopped being seen). */
    public static SeatsExhaustedException leftQueue(int maxSeats) {
        return new SeatsExhaustedException("This install is no longer in the queue; nothing was granted.", -1, maxSeats, 0, null);
    }

    @Override
    public Map<String, Object> members() {
        Map<String, Object> members = new LinkedHashMap<>();
        if (seatsInUse >= 0) {
            members.put("seatsInUse", seatsInUse);
        }
        members.put("maxSeats", maxSeats);
        if (queuePosition != null) {
            members.put("queuePosition", queuePosition);
        }
        return members;
    }

    @Override
    public Optional<Integer> retryAfterSeconds() {
        return Optional.of(retryAfter);
    }
}
