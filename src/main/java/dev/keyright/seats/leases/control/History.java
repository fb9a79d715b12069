package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/** Writes the usage history, in the transaction of the change it records. */
@ApplicationScoped
public class History {

    @PersistenceContext
    EntityManager em;

    public void granted(Lease lease, Instant at) {
        em.persist(LeaseEvent.of(LeaseEvent.Kind.GRANT, lease, at));
    }

    public void denied(String licenseId, Holder holder, Instant at, String reason) {
        em.persist(LeaseEvent.denial(licenseId, holder, at, reason));
    }

    /** The holder borrowed the seat: it stays counted, off the network, until its (new) expiry. */
    public void borrowed(Lease lease, Instant at) {
        em.persist(LeaseEvent.of(LeaseEvent.Kind.BORROW, lease, at));
    }

    /** A release that lingers: the seat stays counted until {@code countedUntil}, and the grant ends there. */
    public void lingering(Lease lease, Instant releasedAt, Instant countedUntil) {
        em.persist(LeaseEvent.of(LeaseEvent.Kind.RELEASE, lease, releasedAt));
        markEnded(lease, countedUntil);
    }

    /** The install took its lingering seat back: the grant goes on. */
    public void resumed(Lease lease) {
        em.createNamedQuery(LeaseEvent.REOPEN_GRANT).setParameter("leaseId", lease.id()).executeUpdate();
    }

    /** An administrator revoked the seat and blocked its install. */
    public void revokedAndBlocked(Lease lease, Instant at) {
        LeaseEvent event = LeaseEvent.blockingRevoke(lease, at);
        em.persist(event);
        markEnded(lease, at);
    }

    /** A release or revocation at {@code at}, or an expiry (dated at the lease's expiry): the grant learns its end. */
    public void ended(Lease lease, LeaseEvent.Kind kind, Instant at) {
        LeaseEvent event = kind == LeaseEvent.Kind.EXPIRE ? LeaseEvent.expiry(lease) : LeaseEvent.of(kind, lease, at);
        em.persist(event);
        markEnded(lease, event.at());
    }

    private void markEnded(Lease lease, Instant endedAt) {
        em.createNamedQuery(LeaseEvent.MARK_GRANT_ENDED)
                .setParameter("endedAt", endedAt.toEpochMilli())
                .setParameter("leaseId", lease.id())
                .executeUpdate();
    }
}
