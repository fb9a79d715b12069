package dev.keyright.client;

import java.time.Duration;

/** Told each time {@link KeyrightClient#acquireSeatWaiting} finds the pool full and will try again. */
@FunctionalInterface
public interface SeatWaitListener {

    /**
     * @param refusal       the last refusal, with the pool's numbers
     * @param nextAttemptIn how long until the next attempt
     */
    void waiting(SeatsExhaustedException refusal, Duration nextAttemptIn);

    static SeatWaitListener silent() {
        return (refusal, nextAttemptIn) -> { };
    }
}
