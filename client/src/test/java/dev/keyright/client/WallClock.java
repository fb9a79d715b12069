package dev.keyright.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock for tests: it shows what the test sets, and, when given a {@link ManualTime}, moves on with it,
 * so a scheduled refresh and the wall clock agree. Setting it is what a user setting the system clock does.
 */
final class WallClock extends Clock {

    private final Ticker ticker;
    private Instant base;
    private long origin;

    WallClock(Instant at) {
        this(at, () -> 0L);
    }

    WallClock(Instant at, Ticker ticker) {
        this.ticker = ticker;
        set(at);
    }

    synchronized void set(Instant at) {
        base = at;
        origin = ticker.nanos();
    }

    void advance(Duration duration) {
        set(instant().plus(duration));
    }

    @Override
    public synchronized Instant instant() {
        return base.plusNanos(ticker.nanos() - origin);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
