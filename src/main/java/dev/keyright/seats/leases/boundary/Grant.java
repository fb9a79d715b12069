package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.entity.Holder;

/**
 * What a checkout or a heartbeat gave: a new seat, the same install's live seat again, a renewal, the
 * replay of an answer stored under the same Idempotency-Key, or a place in the queue for a request that
 * may wait. Carries the lease body of the wire contract, never an HTTP status: {@link SeatsResource}
 * decides those, and {@link Answers} is the one mapping. {@code answerStored} says that the checkout stored
 * this grant's answer under an Idempotency-Key (set only where it stores, {@link #withAnswerStored}).
 */
public record Grant(Kind kind, String leaseId, String body, long seatsInUse, int maxSeats, StoredResponse replayed,
                    Place place, boolean overdraft, boolean answerStored) {

    public enum Kind { NEW, RETURNING, RENEWED, REPLAY, QUEUED }

    static Grant of(Kind kind, String leaseId, String body, long seatsInUse, int maxSeats) {
        return of(kind, leaseId, body, seatsInUse, maxSeats, false);
    }

    /** A new seat; {@code overdraft} when it was granted beyond the license's seats. */
    static Grant of(Kind kind, String leaseId, String body, long seatsInUse, int maxSeats, boolean overdraft) {
        return new Grant(kind, leaseId, body, seatsInUse, maxSeats, null, null, overdraft, false);
    }

    static Grant replay(StoredResponse stored) {
        return new Grant(Kind.REPLAY, null, stored.body(), -1, -1, stored, null, false, false);
    }

    /** No seat yet: the install waits at its place in the license's queue. */
    static Grant queued(Place place, long seatsInUse, int maxSeats) {
        return new Grant(Kind.QUEUED, null, null, seatsInUse, maxSeats, null, place, false, false);
    }

    /** This grant, its answer now stored under the request's Idempotency-Key. */
    Grant withAnswerStored() {
        return new Grant(kind, leaseId, body, seatsInUse, maxSeats, replayed, place, overdraft, true);
    }

    /** Where a request that may wait stands: its license, install and Idempotency-Key claim, and its position (1 = next). */
    public record Place(String licenseId, Holder holder, IdempotencyClaim claim, int position) {
    }
}
