package dev.keyright.seats.leases.entity;

import java.time.Duration;
import java.time.Instant;

/**
 * The queue's one rule, the twin of {@link Liveness}: an install is waiting if and only if
 * {@code now <= lastSeenAt + keep}, on the server's clock. {@code lastSeenAt} is the last moment the server
 * saw the install asking (its acquire, or its request still held); an install that stopped asking, killed or
 * gone, leaves the line {@code keep} after that, and nobody behind it waits for it longer.
 */
public final class QueueKeep {

    private QueueKeep() {
    }

    /** {@code now <= lastSeenAt + keep}. */
    public static boolean isWaiting(Instant lastSeenAt, Instant now, Duration keep) {
        return !lastSeenAt.isBefore(oldestWaitingSeenAt(now, keep));
    }

    /** The same rule as a bound: an install is waiting iff {@code lastSeenAt >= now - keep}. */
    public static Instant oldestWaitingSeenAt(Instant now, Duration keep) {
        return now.minus(keep);
    }

}
