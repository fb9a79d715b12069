package dev.keyright.seats.testing;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.interceptor.Interceptor;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test deployments only: the server's clock, movable by tests (an offset from system time) or frozen
 * at an exact millisecond, so expiry is tested without waiting.
 */
@ApplicationScoped
@Alternative
@Priority(Interceptor.Priority.APPLICATION + 100)
public class MovableClock {

    static final AtomicLong OFFSET_MILLIS = new AtomicLong();
    static final AtomicLong FROZEN_AT = new AtomicLong(Long.MIN_VALUE);

    @Produces
    public Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                long frozen = FROZEN_AT.get();
                return Instant.ofEpochMilli(frozen != Long.MIN_VALUE ? frozen : System.currentTimeMillis() + OFFSET_MILLIS.get());
            }
        };
    }
}
