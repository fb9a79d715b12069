package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.database.QuietConflicts;
import dev.keyright.seats.database.RowLocks;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.InstallBlocks;
import dev.keyright.seats.leases.control.KnownLeases;
import dev.keyright.seats.leases.control.LicenseGate;
import dev.keyright.seats.leases.control.Linger;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import dev.keyright.seats.leases.entity.LeaseNotFoundException;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseNotFoundException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The transactions that end a seat before its expiry: a release by its holder, a revoke by an administrator. Each
 * is one attempt; {@link Seats} runs it again from outside when the database chose it as a deadlock victim, as it
 * does a checkout, and tells the observers once it committed. A lost conflict leaves it unlogged, as a checkout's
 * does ({@link QuietConflicts}).
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
@Interceptors(QuietConflicts.class)
public class Endings {

    @PersistenceContext
    EntityManager em;
    @Inject
    History history;
    @Inject
    KnownLeases knownLeases;
    @Inject
    InstallBlocks blocks;
    @Inject
    LicenseGate gate;
    @Inject
    Clock clock;
    @EJB
    Licenses licenses;

    /**
     * Give a seat back now, its lease read and locked on its row. 404 when there is no live lease of that id for this
     * license (or it was released already). On a license with {@code lingerSeconds}, the seat stays counted for this
     * install until the linger ends ({@link Linger}); the seat is free for others only then.
     */
    public void release(License license, String leaseId) {
        Instant now = clock.instant();
        Lease lease = RowLocks.lock(em, Lease.LOCK, Lease.class, leaseId);
        if (lease == null || !lease.belongsTo(license.id()) || !lease.isLiveAt(now, license.skew()) || lease.isReleased()) {
            throw new LeaseNotFoundException();
        }
        Optional<Instant> lingerUntil = Linger.until(license, lease, now);
        if (lingerUntil.isPresent()) {
            lease.linger(now, lingerUntil.get());
            knownLeases.forget(leaseId);
            history.lingering(lease, now, lingerUntil.get());
        } else {
            end(lease, lease.isBorrowed() ? LeaseEvent.Kind.RETURN : LeaseEvent.Kind.RELEASE, now);
        }
    }

    /**
     * An administrator takes a seat back now; with {@code blockSeconds > 0} its install is refused for that long on
     * every node too (see {@link Seats#revoke}).
     */
    public void revoke(String licenseId, String leaseId, int blockSeconds) {
        License license = blockSeconds > 0 ? lockedForBlock(licenseId) : licenses.get(licenseId);
        Lease lease = RowLocks.lock(em, Lease.LOCK, Lease.class, leaseId);
        if (lease == null || !lease.belongsTo(licenseId)) {
            throw new LeaseNotFoundException();
        }
        Instant now = clock.instant();
        if (blockSeconds > 0) {
            blocks.block(license, lease.holder().clientInstanceId(), now, now.plusSeconds(blockSeconds));
            history.revokedAndBlocked(lease, now);
            knownLeases.forget(leaseId);
            em.remove(lease);
        } else {
            end(lease, LeaseEvent.Kind.REVOKE, now);
        }
    }

    /**
     * The license row, locked as a checkout locks it (first the license, then a lease: the same order), for a revoke
     * that blocks: the block and the row's "may have blocks" flag are written under that lock.
     */
    private License lockedForBlock(String licenseId) {
        License license = gate.lock(licenseId, "revoked");
        if (license == null) {
            throw new LicenseNotFoundException();
        }
        return license;
    }

    private void end(Lease lease, LeaseEvent.Kind kind, Instant now) {
        knownLeases.forget(lease.id());
        em.remove(lease);
        history.ended(lease, kind, now);
    }
}
