package dev.keyright.client;

import java.time.Duration;

/**
 * Waits for a seat within a budget, always the whole budget. Each attempt asks the server to hold
 * it in the license's queue ({@code Prefer: wait=N}: 1 s the first time, so that the place is known at once,
 * then the budget left, at most the configured hold, {@link #DEFAULT_HOLD} unless set);
 * a refusal that says the install's place in the queue is re-sent at once, which keeps that place.
 * A refusal without a place (a server that does not queue) or a transient failure is tried again
 * after the server's {@code Retry-After} plus up to 20% jitter, never sooner, and never past the
 * budget: a pause that would pass it is cut short for one last attempt at the deadline. When the
 * budget ends without a seat, the install leaves the queue and the last refusal is thrown.
 */
final class SeatWait {

    static final Duration DEFAULT_PAUSE = Duration.ofSeconds(5);
    static final Duration SHORTEST_PAUSE = Duration.ofMillis(500);
    /** The longest hold the contract allows ({@code Prefer: wait=N}, 1 ≤ N ≤ 60). */
    static final Duration LONGEST_HOLD = Duration.ofSeconds(60);
    /**
     * The hold asked for by default. The server cannot tell that a held client died (no container reports a
     * closed connection of a held request), so a killed install keeps its place for the rest of its hold
     * plus the server's queue keep: a shorter hold bounds that, at the cost of one request per hold.
     */
    static final Duration DEFAULT_HOLD = Duration.ofSeconds(20);
    private static final Duration SHORTEST_HOLD = Duration.ofSeconds(1);

    private final Ticker ticker;
    private final Sleeper sleeper;
    private final Jitter jitter;
    private final long longestHoldSeconds;

    SeatWait(Ticker ticker, Sleeper sleeper, Jitter jitter) {
        this(ticker, sleeper, jitter, DEFAULT_HOLD);
    }

    SeatWait(Ticker ticker, Sleeper sleeper, Jitter jitter, Duration longestHold) {
        if (longestHold.compareTo(SHORTEST_HOLD) < 0 || longestHold.compareTo(LONGEST_HOLD) > 0) {
            throw new IllegalArgumentException("the queue hold must be between 1 s and 60 s, not " + longestHold);
        }
        this.ticker = ticker;
        this.sleeper = sleeper;
        this.jitter = jitter;
        this.longestHoldSeconds = longestHold.toSeconds();
    }

    Lease acquire(Duration budget, SeatQueue queue, SeatWaitListener listener) {
        if (budget.isZero() || budget.isNegative()) return queue.acquire(Duration.ZERO);
        long start = ticker.nanos();
        long deadline = start + budget.toNanos();
        boolean first = true;
        try {
            while (true) {
                long sentAt = ticker.nanos();
                Duration pause;
                try {
                    // the first hold is the shortest, so the install learns its place (and shows it) at once
                    Duration hold = first ? SHORTEST_HOLD : holdWithin(deadline - sentAt);
                    first = false;
                    return queue.acquire(hold);
                } catch (SeatsExhaustedException e) {
                    listener.waiting(e, Duration.ofNanos(ticker.nanos() - start));
                    if (ticker.nanos() >= deadline) throw e;
                    pause = e.queuePosition().isPresent() ? heldTooBriefly(sentAt)
                            : pauseAfter(e.retryAfter().orElse(DEFAULT_PAUSE));
                } catch (TransientException e) {
                    if (ticker.nanos() >= deadline) throw e;
                    pause = pauseAfter(e.retryAfter().orElse(DEFAULT_PAUSE));
                }
                pauseWithin(pause, deadline);
            }
        } catch (RuntimeException e) {
            queue.leave();
            throw e;
        }
    }

    /** {@code Prefer: wait=N}: the budget left in whole seconds, rounded up, between 1 and the longest hold. */
    private Duration holdWithin(long remainingNanos) {
        long seconds = (remainingNanos + 999_999_999L) / 1_000_000_000L;
        return Duration.ofSeconds(Math.max(1, Math.min(longestHoldSeconds, seconds)));
    }

    /** None: a held refusal is re-sent at once. Only one that came back at once (no hold) waits a little. */
    private Duration heldTooBriefly(long sentAt) {
        return ticker.nanos() - sentAt < SHORTEST_PAUSE.toNanos() ? SHORTEST_PAUSE : Duration.ZERO;
    }

    private Duration pauseAfter(Duration asked) {
        return jitter.atLeast(asked.compareTo(SHORTEST_PAUSE) < 0 ? SHORTEST_PAUSE : asked, 0.2);
    }

    private void pauseWithin(Duration pause, long deadline) {
        long remaining = deadline - ticker.nanos();
        long nanos = Math.min(pause.toNanos(), remaining);
        if (nanos > 0) TransientRetry.pause(sleeper, Duration.ofNanos(nanos));
    }
}
