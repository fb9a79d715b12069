package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Lease;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this node knows of the leases it renews: the facts that never change after a checkout (id, license,
 * holder, acquired at, overdraft), so that a heartbeat is one statement ({@link Lease#RENEW_IF_HELD_AND_LIVE})
 * and not a read, a lock and a write. Nothing here decides anything: whether a lease is held and live is
 * decided by that statement, on the row, every time. A checkout remembers the lease it grants, inside its
 * transaction: one that is rolled back afterwards leaves an entry whose statement finds no row, and the heartbeat
 * then reads the row, forgets the entry and answers 404, as for any unknown lease. A lease granted by another node
 * (or before a restart) is read once, at its first heartbeat here. Bounded: at {@link #MAX_ENTRIES} it starts
 * again empty (each lease is then read once more).
 */
@ApplicationScoped
public class KnownLeases {

    static final int MAX_ENTRIES = 100_000;

    private final Map<String, Lease> byId = new ConcurrentHashMap<>();

    public Optional<Lease> find(String leaseId) {
        return Optional.ofNullable(byId.get(leaseId));
    }

    /** Keeps a copy of the lease's facts (never the managed entity). */
    public void remember(Lease lease) {
        if (byId.size() >= MAX_ENTRIES) {
            byId.clear();
        }
        byId.put(lease.id(), lease.renewedTo(lease.expiresAt()));
    }

    /** The lease ended here (released, revoked, found not renewable). */
    public void forget(String leaseId) {
        byId.remove(leaseId);
    }
}
