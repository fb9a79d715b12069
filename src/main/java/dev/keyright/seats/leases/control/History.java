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

    public void denied(String licenseId, Holder holder, Instant at) {
        em.persist(LeaseEvent.denial(licenseId, holder, at));
    }

    /** A release or revocation at {@code at}, or an expiry (dated at the lease's expiry): the grant learns its end. */
    public void ended(Lease lease, LeaseEvent.Kind kind, Instant at) {
        LeaseEvent event = kind == LeaseEvent.Kind.EXPIRE ? LeaseEvent.expiry(lease) : LeaseEvent.of(kind, lease, at);
        em.persist(event);
        em.createNamedQuery(LeaseEvent.MARK_GRANT_ENDED)
                .setParameter("endedAt", event.at().toEpochMilli())
                .setParameter("leaseId", lease.id())
                .executeUpdate();
    }
}
