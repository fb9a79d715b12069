package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.Liveness;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The live leases of a license, by the one liveness rule, on the index (license_id, expires_at), in the caller's transaction. */
@ApplicationScoped
public class LiveLeases {

    @PersistenceContext
    EntityManager em;

    public long count(License license, Instant now) {
        return countNamed(Lease.COUNT_LIVE, license, now);
    }

    /** Live leases whose holder reported this user. */
    public long countOfUser(License license, String user, Instant now) {
        return countNamed(Lease.COUNT_LIVE_OF_USER, license, user, now);
    }

    /** Live leases whose holder reported this host. */
    public long countOfHost(License license, String host, Instant now) {
        return countNamed(Lease.COUNT_LIVE_OF_HOST, license, host, now);
    }

    /**
     * Live leases granted out of the overdraft and live leases borrowed for offline use. Two counts: one query of
     * {@code SUM(CASE ... THEN 1 ELSE 0 END)} is refused by H2, the embedded default, because EclipseLink binds the
     * CASE's literals as untyped parameters ("SUM or AVG on wrong data type"; RedeployIT, on H2, found it).
     */
    public OverdraftAndBorrowed countOverdraftAndBorrowed(License license, Instant now) {
        return new OverdraftAndBorrowed(countNamed(Lease.COUNT_LIVE_OVERDRAFT, license, now),
                countNamed(Lease.COUNT_LIVE_BORROWED, license, now));
    }

    /** How many live leases are out of the overdraft, and how many borrowed for offline use. */
    public record OverdraftAndBorrowed(long overdraft, long borrowed) {
    }

    /** The holders of live leases that reported one of these users or hosts (reservation owners). */
    public List<dev.keyright.seats.leases.entity.Holder> holdersNamed(License license, Collection<String> users,
                                                                    Collection<String> hosts, Instant now) {
        // an empty IN list is not valid SQL everywhere: a name no client can report stands in for "none"
        return em.createNamedQuery(Lease.FIND_LIVE_HOLDERS_NAMED, Lease.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli())
                .setParameter("users", users.isEmpty() ? List.of("\u0000") : users)
                .setParameter("hosts", hosts.isEmpty() ? List.of("\u0000") : hosts)
                .getResultStream().map(Lease::holder).toList();
    }

    private long countNamed(String query, License license, String name, Instant now) {
        return live(query, license, now).setParameter("name", name).getSingleResult();
    }

    private long countNamed(String query, License license, Instant now) {
        return live(query, license, now).getSingleResult();
    }

    /** A count of {@code license}'s live leases: the one liveness rule's bound, from {@link Liveness}. */
    private jakarta.persistence.TypedQuery<Long> live(String query, License license, Instant now) {
        return em.createNamedQuery(query, Long.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli());
    }

    /**
     * When the first seat of a full license can free up by expiry: the earliest live lease's
     * {@code expiresAt + skew}, the last instant the rule still calls it live. Empty when nothing is live.
     */
    public java.util.Optional<Instant> firstPossibleExpiry(License license, Instant now) {
        Long earliest = em.createNamedQuery(Lease.EARLIEST_LIVE_EXPIRY, Long.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli())
                .getSingleResult();
        return java.util.Optional.ofNullable(earliest).map(millis -> Instant.ofEpochMilli(millis).plus(license.skew()));
    }

    /**
     * The live leases of many licenses in one query (the admin list), not one per license: every lease
     * not yet past the largest skew, then each kept only if live under its own license's skew.
     */
    public Map<String, List<Lease>> byLicense(Collection<License> licenses, Instant now) {
        Map<String, License> byId = new HashMap<>();
        Instant oldest = now;
        for (License license : licenses) {
            byId.put(license.id(), license);
            Instant bound = Liveness.oldestLiveExpiry(now, license.skew());
            oldest = bound.isBefore(oldest) ? bound : oldest;
        }
        Map<String, List<Lease>> live = new HashMap<>();
        byId.keySet().forEach(id -> live.put(id, new ArrayList<>()));
        if (byId.isEmpty()) {
            return live;
        }
        List<Lease> candidates = em.createNamedQuery(Lease.FIND_MAYBE_LIVE, Lease.class)
                .setParameter("oldestLiveExpiry", oldest.toEpochMilli())
                .getResultList();
        for (Lease lease : candidates) {
            License license = byId.get(lease.licenseId());
            if (license != null && lease.isLiveAt(now, license.skew())) {
                live.get(license.id()).add(lease);
            }
        }
        return live;
    }

    public List<Lease> list(License license, Instant now) {
        return em.createNamedQuery(Lease.FIND_LIVE, Lease.class)
                .setParameter("licenseId", license.id())
                .setParameter("oldestLiveExpiry", Liveness.oldestLiveExpiry(now, license.skew()).toEpochMilli())
                .getResultList();
    }
}
