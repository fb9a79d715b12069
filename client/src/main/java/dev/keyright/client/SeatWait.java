package dev.keyright.client;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for a seat within a budget: tries, and while the pool is full (or the server briefly
 * unavailable) tries again after the server's {@code Retry-After} plus up to 20% jitter, never
 * sooner. When the next attempt would fall past the budget, throws the last refusal.
 */
final class SeatWait {

    static final Duration DEFAULT_PAUSE = Duration.ofSeconds(5);
    static final Duration SHORTEST_PAUSE = Duration.ofMillis(500);

    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Jitter jitter;

    SeatWait(Ticker ticker, Sleeper sleeper, Jitter jitter) {
        this.ticker = ticker;
        this.sleeper = sleeper;
        this.jitter = jitter;
    }

    Lease acquire(Duration budget, Supplier<Lease> acquire, SeatWaitListener listener) {
        long deadline = ticker.nanos() + budget.toNanos();
        while (true) {
            Duration pause;
            try {
                return acquire.get();
            } catch (SeatsExhaustedException e) {
                pause = pauseAfter(e.retryAfter().orElse(DEFAULT_PAUSE));
                if (pastDeadline(pause, deadline)) throw e;
                listener.waiting(e, pause);
            } catch (TransientException e) {
                pause = pauseAfter(e.retryAfter().orElse(DEFAULT_PAUSE));
                if (pastDeadline(pause, deadline)) throw e;
            }
            TransientRetry.pause(sleeper, pause);
        }
    }

    private Duration pauseAfter(Duration asked) {
        return jitter.atLeast(asked.compareTo(SHORTEST_PAUSE) < 0 ? SHORTEST_PAUSE : asked, 0.2);
    }

    private boolean pastDeadline(Duration pause, long deadline) {
        return ticker.nanos() + pause.toNanos() > deadline;
    }
}
