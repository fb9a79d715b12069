package dev.keyright.client;

/** Told of each change of a {@link SeatKeepAlive}'s state, on the keep-alive's thread. */
@FunctionalInterface
public interface SeatStateListener {

    /**
     * @param cause what caused the change; null when the new state is {@link SeatState#HELD}
     */
    void seatStateChanged(SeatState previous, SeatState current, KeyrightException cause);

    static SeatStateListener ignoring() {
        return (previous, current, cause) -> { };
    }
}
