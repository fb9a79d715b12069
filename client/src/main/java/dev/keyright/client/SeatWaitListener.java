package dev.keyright.client;

import java.time.Duration;

/**
 * Told of each refusal while {@link KeyrightClient#acquireSeatWaiting} waits for a seat: the
 * refusal carries the place in the queue ({@link SeatsExhaustedException#queuePosition()}, when the
 * server queues) and the pool's numbers. Runs on the waiting thread.
 */
@FunctionalInterface
public interface SeatWaitListener {

    /**
     * @param refusal the refusal just received: {@code queuePosition()}, {@code seatsInUse()}, {@code maxSeats()}
     * @param waited  how long this wait has lasted so far (monotonic time since it began)
     */
    void waiting(SeatsExhaustedException refusal, Duration waited);

    static SeatWaitListener silent() {
        return (refusal, waited) -> { };
    }
}
