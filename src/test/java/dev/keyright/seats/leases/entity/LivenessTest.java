package dev.keyright.seats.leases.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The one rule, {@code now <= expiresAt + skew}, at its exact boundaries on a frozen clock. */
class LivenessTest {

    private static final Instant EXPIRES_AT = Instant.parse("2026-11-13T14:32:05Z");
    private static final Duration SKEW = Duration.ofSeconds(5);

    private static Clock frozenAt(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    @Test
    void liveUpToAndIncludingExpiryPlusSkew() {
        Instant deadline = EXPIRES_AT.plus(SKEW);
        assertTrue(Liveness.isLive(EXPIRES_AT, frozenAt(EXPIRES_AT).instant(), SKEW));
        assertTrue(Liveness.isLive(EXPIRES_AT, frozenAt(deadline.minusMillis(1)).instant(), SKEW));
        assertTrue(Liveness.isLive(EXPIRES_AT, frozenAt(deadline).instant(), SKEW));
        assertFalse(Liveness.isLive(EXPIRES_AT, frozenAt(deadline.plusMillis(1)).instant(), SKEW));
        assertFalse(Liveness.isLive(EXPIRES_AT, frozenAt(deadline.plusNanos(1)).instant(), SKEW));
    }

    @Test
    void zeroSkewMeansLiveExactlyUntilExpiry() {
        assertTrue(Liveness.isLive(EXPIRES_AT, EXPIRES_AT, Duration.ZERO));
        assertFalse(Liveness.isLive(EXPIRES_AT, EXPIRES_AT.plusMillis(1), Duration.ZERO));
    }

    @Test
    void theQueryBoundIsTheSameRuleRearranged() {
        Instant now = EXPIRES_AT.plus(SKEW);
        Instant bound = Liveness.oldestLiveExpiry(now, SKEW);
        assertEquals(EXPIRES_AT, bound, "expires_at >= now - skew admits exactly the live leases");
        for (long offset = -3; offset <= 3; offset++) {
            Instant probe = now.plusMillis(offset);
            assertEquals(Liveness.isLive(EXPIRES_AT, probe, SKEW),
                    !EXPIRES_AT.isBefore(Liveness.oldestLiveExpiry(probe, SKEW)), "offset " + offset);
        }
    }

    @Test
    void theReaperCutsOnlyPastTheGrace() {
        Duration grace = Duration.ofSeconds(15);
        Instant now = EXPIRES_AT.plus(grace);
        Instant cutoff = Liveness.reapableBefore(now, grace, SKEW);
        assertFalse(EXPIRES_AT.isBefore(cutoff), "exactly at expiresAt + grace the row stays");
        assertTrue(EXPIRES_AT.isBefore(Liveness.reapableBefore(now.plusMillis(1), grace, SKEW)));
        assertFalse(Liveness.isLive(EXPIRES_AT, now, SKEW), "whatever the reaper may delete is already dead");
    }

    @Test
    void aGraceNotAboveTheSkewIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Liveness.reapableBefore(EXPIRES_AT, SKEW, SKEW));
        assertThrows(IllegalArgumentException.class, () -> Liveness.reapableBefore(EXPIRES_AT, Duration.ofSeconds(4), SKEW));
    }
}
