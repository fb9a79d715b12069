package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.entity.StoredResponse;

/** An acquire's answer: a fresh response, or the replay of one stored under the same Idempotency-Key. */
public record AcquireOutcome(StoredResponse response, boolean replayed, long seatsInUse, int maxSeats) {

    static AcquireOutcome replay(StoredResponse stored) {
        return new AcquireOutcome(stored, true, -1, -1);
    }

    boolean granted() {
        return !replayed && response.status() == 201;
    }
}
