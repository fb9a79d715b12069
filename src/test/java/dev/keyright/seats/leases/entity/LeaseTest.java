package dev.keyright.seats.leases.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The lease row: the liveness rule applied to its stored expiry, renewal, and whose it is. */
class LeaseTest {

    private static final Instant ACQUIRED = Instant.parse("2026-11-13T14:30:05.123Z");
    private static final Instant EXPIRES = ACQUIRED.plusSeconds(120);
    private static final Duration SKEW = Duration.ofSeconds(5);

    private static Lease lease() {
        return new Lease("lease_1", "lic_1", new Holder("inst-ws14", "r.okafor", "lab-ws-14"), ACQUIRED, EXPIRES);
    }

    @Test
    void isLiveByTheOneRuleOnItsStoredExpiry() {
        Lease lease = lease();
        assertTrue(lease.isLiveAt(EXPIRES.plus(SKEW), SKEW));
        assertFalse(lease.isLiveAt(EXPIRES.plus(SKEW).plusMillis(1), SKEW));
    }

    @Test
    void renewMovesTheExpiryToTheSignedOne() {
        Lease lease = lease();
        Instant renewed = EXPIRES.plusSeconds(40);
        lease.renew(renewed);
        assertEquals(renewed, lease.expiresAt());
        assertTrue(lease.isLiveAt(EXPIRES.plus(SKEW).plusMillis(1), SKEW), "live past the old expiry");
        assertEquals(ACQUIRED, lease.acquiredAt(), "acquisition time is kept");
    }

    @Test
    void aReleaseThatLingersEndsTheLeaseAtTheLingerAndMarksItReleasedUntilItsInstallTakesItBack() {
        Lease lease = lease();
        assertFalse(lease.isReleased());
        assertEquals(java.util.Optional.empty(), lease.releasedAt());
        Instant released = ACQUIRED.plusSeconds(10);
        Instant lingerUntil = ACQUIRED.plusSeconds(300);
        lease.linger(released, lingerUntil);
        assertTrue(lease.isReleased());
        assertEquals(java.util.Optional.of(released), lease.releasedAt());
        assertEquals(lingerUntil, lease.expiresAt(), "counted until the linger ends, by the one rule");
        assertTrue(lease.isLiveAt(lingerUntil.plus(SKEW), SKEW));
        assertFalse(lease.isLiveAt(lingerUntil.plus(SKEW).plusMillis(1), SKEW));

        Instant resumed = ACQUIRED.plusSeconds(500);
        lease.resume(resumed);
        assertFalse(lease.isReleased(), "held again");
        assertEquals(java.util.Optional.empty(), lease.releasedAt());
        assertEquals(resumed, lease.expiresAt());
    }

    @Test
    void anOverdraftGrantIsMarkedAndOthersAreNot() {
        Lease lease = lease();
        assertFalse(lease.overdraft());
        lease.markOverdraft();
        assertTrue(lease.overdraft());
    }

    @Test
    void belongsOnlyToItsLicenseAndKeepsWhatItWasGiven() {
        Lease lease = lease();
        assertTrue(lease.belongsTo("lic_1"));
        assertFalse(lease.belongsTo("lic_2"));
        assertEquals("lease_1", lease.id());
        assertEquals("lic_1", lease.licenseId());
        assertEquals(new Holder("inst-ws14", "r.okafor", "lab-ws-14"), lease.holder(), "the holder's three columns");
    }
}
