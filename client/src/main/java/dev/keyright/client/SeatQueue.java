package dev.keyright.client;

import java.time.Duration;

/** A license's queue of installs waiting for a seat, as {@link SeatWait} uses it (API v2 "Waiting for a seat"). */
interface SeatQueue {

    /**
     * One acquire that the server may hold in the queue for up to {@code hold} (whole seconds,
     * {@code Prefer: wait}) while the pool is full; {@link Duration#ZERO} for a plain acquire.
     *
     * @throws SeatsExhaustedException when no seat was granted within the hold
     */
    Lease acquire(Duration hold);

    /** Gives up this install's place in the queue, best-effort: never throws. */
    void leave();
}
