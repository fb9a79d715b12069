package dev.keyright.seats.leases.entity;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * No seat for this install now: every seat is in use, or the free ones belong to installs ahead of it in the
 * line. A normal state of a full pool, not a fault.
 */
public class SeatsExhaustedException extends SeatRefusal {

    private final long seatsInUse;
    private final int maxSeats;
    private final int retryAfter;
    private final Integer queuePosition;
    private int overdraftSeats;
    private int reservedForOthers;

    private SeatsExhaustedException(String detail, long seatsInUse, int maxSeats, int retryAfterSeconds, Integer queuePosition) {
        super("seats-exhausted", detail);
        this.seatsInUse = seatsInUse;
        this.maxSeats = maxSeats;
        this.retryAfter = retryAfterSeconds;
        this.queuePosition = queuePosition;
    }

    /** Refused without waiting: come back after {@code retryAfterSeconds}, when a seat can first free up. */
    public static SeatsExhaustedException full(long seatsInUse, int maxSeats, int queued, int retryAfterSeconds) {
        return full(seatsInUse, maxSeats, 0, 0, queued, retryAfterSeconds);
    }

    /**
     * Refused under the license's sharing rules: {@code capacity} is the seats plus the overdraft, and
     * {@code reservedForOthers} seats are kept by reservations for their owners, who do not use them now.
     */
    public static SeatsExhaustedException full(long seatsInUse, int maxSeats, int overdraftSeats, int reservedForOthers,
                                               int queued, int retryAfterSeconds) {
        long capacity = (long) maxSeats + overdraftSeats;
        String detail;
        if (seatsInUse >= capacity) {
            detail = overdraftSeats == 0
                    ? "All " + maxSeats + " seats are in use (" + seatsInUse + " held). Retry later."
                    : "All " + maxSeats + " seats and the " + overdraftSeats + " overdraft seats are in use ("
                            + seatsInUse + " held). Retry later.";
        } else if (reservedForOthers > 0 && seatsInUse + reservedForOthers >= capacity) {
            detail = seatsInUse + " of " + capacity + " seats are in use and the other " + (capacity - seatsInUse)
                    + " are reserved for other users or hosts (" + reservedForOthers + " reserved and unused). Retry later.";
        } else {
            detail = (capacity - seatsInUse - reservedForOthers) + " seats are free, and " + queued
                    + " waiting installs are ahead in the queue. Retry later, or wait with Prefer: wait=N.";
        }
        SeatsExhaustedException refusal = new SeatsExhaustedException(detail, seatsInUse, maxSeats, retryAfterSeconds, null);
        refusal.overdraftSeats = overdraftSeats;
        refusal.reservedForOthers = reservedForOthers;
        return refusal;
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
        if (overdraftSeats > 0) {
            members.put("overdraftSeats", overdraftSeats);
        }
        if (reservedForOthers > 0) {
            members.put("reservedForOthers", reservedForOthers);
        }
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
