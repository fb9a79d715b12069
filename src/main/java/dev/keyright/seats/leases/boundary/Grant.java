package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.entity.StoredResponse;

/**
 * What a checkout or a heartbeat gave: a new seat, the same install's live seat again, a renewal, or the
 * replay of an answer stored under the same Idempotency-Key. Carries the lease body of the wire contract,
 * never an HTTP status: {@link SeatsResource} decides those, and {@link Answers} is the one mapping.
 */
public record Grant(Kind kind, String leaseId, String body, long seatsInUse, int maxSeats, StoredResponse replayed) {

    public enum Kind { NEW, RETURNING, RENEWED, REPLAY }

    static Grant of(Kind kind, String leaseId, String body, long seatsInUse, int maxSeats) {
        return new Grant(kind, leaseId, body, seatsInUse, maxSeats, null);
    }

    static Grant replay(StoredResponse stored) {
        return new Grant(Kind.REPLAY, null, stored.body(), -1, -1, stored);
    }
}
