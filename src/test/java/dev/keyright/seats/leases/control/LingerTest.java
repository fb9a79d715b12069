package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.licenses.entity.Sharing;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A released seat stays counted until {@code max(releasedAt, acquiredAt + lingerSeconds)}, at its edges. */
class LingerTest {

    private static final Instant ACQUIRED = Instant.parse("2026-11-13T14:30:05Z");

    private static License license(int lingerSeconds) {
        License license = new License("lic_1", "acme", "hash", new Policy(2, 120, 5), null, null, ACQUIRED);
        license.apply(new Sharing(0, lingerSeconds, null, null, List.of()));
        return license;
    }

    private static Lease lease() {
        return new Lease("lease_1", "lic_1", new Holder("inst", null, null), ACQUIRED, ACQUIRED.plusSeconds(120));
    }

    @Test
    void withoutLingerAReleaseEndsTheSeatAtOnce() {
        assertEquals(Optional.empty(), Linger.until(license(0), lease(), ACQUIRED.plusSeconds(1)));
        // even when the server's clock was stepped back below the lease's start: no linger is no linger
        assertEquals(Optional.empty(), Linger.until(license(0), lease(), ACQUIRED.minusSeconds(30)));
    }

    @Test
    void aReleaseInsideTheWindowLingersToItsEnd() {
        assertEquals(Optional.of(ACQUIRED.plusSeconds(300)), Linger.until(license(300), lease(), ACQUIRED.plusSeconds(10)));
        assertEquals(Optional.of(ACQUIRED.plusSeconds(300)), Linger.until(license(300), lease(), ACQUIRED.plusSeconds(299)));
    }

    @Test
    void aReleaseAtOrAfterTheEndOfTheWindowEndsAtOnce() {
        assertEquals(Optional.empty(), Linger.until(license(300), lease(), ACQUIRED.plusSeconds(300)));
        assertEquals(Optional.empty(), Linger.until(license(300), lease(), ACQUIRED.plusSeconds(301)));
    }
}
