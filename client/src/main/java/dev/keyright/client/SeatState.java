package dev.keyright.client;

/** What a {@link SeatKeepAlive} knows about its seat. */
public enum SeatState {
    /** The last renewal (or acquire) succeeded: the seat is held. */
    HELD,
    /**
     * Renewals are failing for a transient reason, or the server lost the lease and a re-acquire is
     * under way. The seat is still held until the lease's local deadline.
     */
    UNCERTAIN,
    /**
     * No seat: the local deadline passed without a renewal, or the server refused the lease and a
     * re-acquire failed. Final: the keep-alive stops; acquire again to get a new seat.
     */
    LOST
}
