package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.FieldError;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How many seats a license has and how its leases are held: TTL and clock-skew allowance, in seconds. A value
 * embedded in the license row; it owns its bounds.
 */
@Embeddable
public class Policy {

    public static final int MAX_SEATS = 1_000_000;
    public static final int MIN_TTL_SECONDS = 2;
    public static final int MAX_TTL_SECONDS = 86_400;
    public static final int MAX_SKEW_SECONDS = 3_600;

    /**
     * The largest skew a license may have when the reaper waits {@code reapGrace} past a lease's expiry:
     * the grace must stay strictly above every skew, or the reaper could delete a live lease.
     */
    public static int maxSkewSeconds(Duration reapGrace) {
        return (int) Math.min(MAX_SKEW_SECONDS, reapGrace.toSeconds() - 1);
    }

    @Column(name = "seats")
    private int seats;
    @Column(name = "ttl_seconds")
    private int ttlSeconds;
    @Column(name = "skew_seconds")
    private int skewSeconds;

    protected Policy() {
    }

    public Policy(int seats, int ttlSeconds, int skewSeconds) {
        this.seats = seats;
        this.ttlSeconds = ttlSeconds;
        this.skewSeconds = skewSeconds;
    }

    public int seats() { return seats; }
    public int ttlSeconds() { return ttlSeconds; }
    public int skewSeconds() { return skewSeconds; }

    /** The problems with this policy, as field/message pairs; empty when it is valid. */
    public List<FieldError> problems(int maxSkewSeconds) {
        List<FieldError> errors = new ArrayList<>();
        if (seats < 1 || seats > MAX_SEATS) {
            errors.add(new FieldError("seats", "must be between 1 and " + MAX_SEATS));
        }
        if (ttlSeconds < MIN_TTL_SECONDS || ttlSeconds > MAX_TTL_SECONDS) {
            errors.add(new FieldError("ttlSeconds", "must be between " + MIN_TTL_SECONDS + " and " + MAX_TTL_SECONDS));
        }
        if (skewSeconds < 0 || skewSeconds > maxSkewSeconds) {
            errors.add(new FieldError("skewSeconds", "must be between 0 and " + maxSkewSeconds
                    + " (below the reaper's grace)"));
        }
        return errors;
    }

    /** Heartbeat after about a third of the TTL. */
    public int renewAfterSeconds() {
        return Math.max(1, ttlSeconds / 3);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Policy that
                && seats == that.seats && ttlSeconds == that.ttlSeconds && skewSeconds == that.skewSeconds;
    }

    @Override
    public int hashCode() {
        return Objects.hash(seats, ttlSeconds, skewSeconds);
    }

    @Override
    public String toString() {
        return "Policy[seats=" + seats + ", ttlSeconds=" + ttlSeconds + ", skewSeconds=" + skewSeconds + "]";
    }
}
