package dev.keyright.seats.throttling.control;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** How a {@link Throttle} makes a slowed caller wait before its attempt goes on. */
@FunctionalInterface
public interface Pause {

    /** The server's: parks the request's thread for the delay. */
    Pause PARK = delay -> LockSupport.parkNanos(delay.toNanos());

    void pause(Duration delay);
}
