package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code lingerSeconds} (FlexNet's LINGER, RLM's minimum hold): a released seat stays counted for its install
 * until {@code max(releasedAt, acquiredAt + lingerSeconds)}, so that a tool restarted within the window gets its
 * seat back. Only a release lingers: a lease that expires (a crash) is not extended.
 */
public final class Linger {

    private Linger() {
    }

    /** When a seat released now stops being counted, if that is later than now. */
    public static Optional<Instant> until(License license, Lease lease, Instant now) {
        int linger = license.sharing().lingerSeconds();
        if (linger == 0 || lease.isBorrowed()) { // a borrowed seat given back early is free at once
            return Optional.empty();
        }
        Instant end = lease.acquiredAt().plusSeconds(linger);
        return end.isAfter(now) ? Optional.of(end) : Optional.empty();
    }
}
