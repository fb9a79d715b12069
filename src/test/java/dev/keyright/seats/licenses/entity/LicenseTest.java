package dev.keyright.seats.licenses.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class LicenseTest {

    private static final Instant NOW = Instant.parse("2026-11-13T14:32:05.250Z");

    private static License license(int seats, int ttl) {
        return new License("lic_1", "acme", "hash", new Policy(seats, ttl, 5), null, null, NOW);
    }

    @Test
    void expiryIsNeverShorterThanTheTtlAndFallsOnAWholeSecond() {
        assertEquals(Instant.parse("2026-11-13T14:34:06Z"), license(1, 120).expiryFor(NOW));
        assertEquals(Instant.parse("2026-11-13T14:34:05Z"), license(1, 120).expiryFor(Instant.parse("2026-11-13T14:32:05Z")));
    }

    @Test
    void aSuspendedOrEndedLicenseIsNotUsable() {
        License license = license(1, 60);
        assertTrue(license.isUsableAt(NOW));
        license.changeStatus(License.Status.SUSPENDED);
        assertFalse(license.isUsableAt(NOW));
        License ended = new License("lic_2", "acme", "h", new Policy(1, 60, 5), null, NOW.plusSeconds(1), NOW);
        assertTrue(ended.isUsableAt(NOW.plusSeconds(1)));
        assertFalse(ended.isUsableAt(NOW.plusSeconds(2)));
    }
}
