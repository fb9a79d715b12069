package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.InstallBlock;
import dev.keyright.seats.leases.entity.InstallBlockedException;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.Optional;

/**
 * A revoke that sticks: an install an administrator revoked with {@code blockSeconds} gets no seat, on any
 * node, until the block ends (the row is the database's, read in the checkout transaction).
 */
@ApplicationScoped
public class InstallBlocks implements SeatPolicy {

    public static final int MAX_BLOCK_SECONDS = 86_400;

    @PersistenceContext
    EntityManager em;

    @Override
    public Optional<SeatRefusal> refusal(License license, Holder holder, Instant now) {
        InstallBlock block = em.find(InstallBlock.class, new InstallBlock.Key(license.id(), holder.clientInstanceId()));
        return block != null && block.blocksAt(now)
                ? Optional.of(new InstallBlockedException(block.blockedUntil(), now))
                : Optional.empty();
    }

    /** Blocks the install until {@code until}; a later block replaces an earlier one. */
    public void block(String licenseId, String clientInstanceId, Instant now, Instant until) {
        InstallBlock block = em.find(InstallBlock.class, new InstallBlock.Key(licenseId, clientInstanceId));
        if (block == null) {
            em.persist(new InstallBlock(licenseId, clientInstanceId, now, until));
        } else {
            block.extend(now, until);
        }
    }
}
