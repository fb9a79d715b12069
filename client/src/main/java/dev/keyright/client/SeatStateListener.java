package dev.keyright.client;

/** Told of each change of a {@link SeatKeepAlive}'s state, on the keep-alive's thread. */
@FunctionalInterface
public interface SeatStateListener {

    /**
     * @param cause what caused the change; null when the new state is {@link SeatState#HELD}
     */
    void seatStateChanged(SeatState previous, SeatState current, KeyrightException cause);

    /**
     * Told after each successful renewal, and after a re-acquire, with the lease now held (a re-acquire's
     * has a new lease id). Does nothing unless overridden.
     */
    default void renewed(Lease lease) {
    }

    static SeatStateListener ignoring() {
        return (previous, current, cause) -> { };
    }
}
