package dev.keyright.client;

import java.time.Duration;

/** Waits between attempts; tests plug in one that advances a fake {@link Ticker} instead. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    static Sleeper system() {
        return duration -> Thread.sleep(duration.toMillis());
    }
}
