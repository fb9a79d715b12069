package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.List;

/** The live leases of a license, by the one liveness rule, on the index (license_id, expires_at). */
public final class LiveLeases {

    private LiveLeases() {
    }

    public static long count(EntityManager em, License license, Instant now) {
        return em.createNamedQuery(Lease.COUNT_LIVE, Long.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli())
                .getSingleResult();
    }

    public static List<Lease> list(EntityManager em, License license, Instant now) {
        return em.createNamedQuery(Lease.FIND_LIVE, Lease.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli())
                .getResultList();
    }
}
