package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.LeaseEvent;
import jakarta.persistence.EntityManager;
import java.time.Instant;

/** Writes the usage history, in the transaction of the change it records. */
public final class History {

    private History() {
    }

    public static void granted(EntityManager em, Lease lease, Instant at) {
        em.persist(LeaseEvent.of(LeaseEvent.Kind.GRANT, lease, at));
    }

    public static void denied(EntityManager em, String licenseId, Holder holder, Instant at) {
        em.persist(LeaseEvent.denial(licenseId, holder, at));
    }

    /** A release or revocation at {@code at}, or an expiry (dated at the lease's expiry): the grant learns its end. */
    public static void ended(EntityManager em, Lease lease, LeaseEvent.Kind kind, Instant at) {
        LeaseEvent event = kind == LeaseEvent.Kind.EXPIRE ? LeaseEvent.expiry(lease) : LeaseEvent.of(kind, lease, at);
        em.persist(event);
        em.createNamedQuery(LeaseEvent.MARK_GRANT_ENDED)
                .setParameter("endedAt", event.at().toEpochMilli())
                .setParameter("leaseId", lease.id())
                .executeUpdate();
    }
}
