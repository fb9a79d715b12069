package dev.keyright.seats.leases.entity;

import java.time.Duration;
import java.time.Instant;

/**
 * The one rule of the product: a lease is live if and only if {@code now <= expiresAt + skew}, on the
 * server's clock. The checkout count, the renew check, the pool view and the reaper's cut-off all
 * go through this class, so the rule lives here and nowhere else.
 */
public final class Liveness {

    private Liveness() {
    }

    /** {@code now <= expiresAt + skew}. */
    public static boolean isLive(Instant expiresAt, Instant now, Duration skew) {
        return !expiresAt.isBefore(oldestLiveExpiry(now, skew));
    }

    /**
     * The same rule as a bound for queries: a lease is live iff {@code expiresAt >= now - skew}
     * (which is {@code now <= expiresAt + skew} rearranged), i.e. {@code expires_at >= } this value.
     */
    public static Instant oldestLiveExpiry(Instant now, Duration skew) {
        return now.minus(skew);
    }

    /**
     * The reaper's cut-off: rows with {@code expires_at <} this value are dead past the skew by more than
     * the grace, and only those may be deleted. Requires {@code grace > skew}.
     */
    public static Instant reapableBefore(Instant now, Duration grace, Duration maxSkew) {
        if (grace.compareTo(maxSkew) <= 0) {
            throw new IllegalArgumentException("reap grace " + grace + " must exceed the skew " + maxSkew);
        }
        return oldestLiveExpiry(now, grace);
    }
}
