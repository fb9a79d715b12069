package dev.keyright.client;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Retries a call through transient failures a bounded number of times, with a doubling backoff
 * that never undercuts the server's {@code Retry-After}. Gives up at once when the server asks for
 * a longer pause than {@link #LONGEST_PAUSE}: the caller then decides.
 */
final class TransientRetry {

    static final Duration FIRST_PAUSE = Duration.ofMillis(250);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private final int attempts;
    private final Sleeper sleeper;
    private final Jitter jitter;

    TransientRetry(int attempts, Sleeper sleeper, Jitter jitter) {
        this.attempts = attempts;
        this.sleeper = sleeper;
        this.jitter = jitter;
    }

    <T> T call(Supplier<T> call) {
        Duration backoff = FIRST_PAUSE;
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (TransientException e) {
                Duration asked = e.retryAfter().orElse(Duration.ZERO);
                Duration pause = asked.compareTo(backoff) > 0 ? asked : backoff;
                if (attempt >= attempts || pause.compareTo(LONGEST_PAUSE) > 0) throw e;
                pause(sleeper, jitter.atLeast(pause, 0.25));
                backoff = backoff.multipliedBy(2);
            }
        }
    }

    static void pause(Sleeper sleeper, Duration pause) {
        try {
            sleeper.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyrightException("Interrupted while waiting to retry", e);
        }
    }
}
