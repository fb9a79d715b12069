package dev.keyright.seats.licenses.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A heartbeat's copy of a license is used for less than a second, and a change on this node drops it. */
class RecentLicensesTest {

    private final RecentLicenses recent = new RecentLicenses();
    private final License license = new License("lic_1", "acme", "hash", new Policy(5, 120, 5), null, null,
            Instant.parse("2026-12-04T10:00:00Z"));

    @Test
    void aCopyServesForLessThanASecond() {
        recent.remember("hash", license, 1_000L);
        assertEquals(Optional.of(license), recent.find("hash", 1_000L));
        assertEquals(Optional.of(license), recent.find("hash", 1_000L + RecentLicenses.FRESH_FOR_NANOS - 1));
        assertTrue(recent.find("hash", 1_000L + RecentLicenses.FRESH_FOR_NANOS).isEmpty(), "a second old: read again");
        assertTrue(recent.find("other", 1_000L).isEmpty());
    }

    @Test
    void aChangeOnThisNodeIsSeenAtOnce() {
        recent.remember("hash", license, 0L);
        recent.forgetAll();
        assertTrue(recent.find("hash", 1L).isEmpty());
    }

    @Test
    void staysBounded() {
        for (int i = 0; i <= RecentLicenses.MAX_ENTRIES; i++) {
            recent.remember("hash-" + i, license, 0L);
        }
        assertTrue(recent.find("hash-0", 1L).isEmpty(), "full: started again");
        assertEquals(Optional.of(license), recent.find("hash-" + RecentLicenses.MAX_ENTRIES, 1L));
    }
}
