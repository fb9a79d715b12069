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
import java.util.List;
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

    /**
     * Refuses the install while a block of it is in force. Called with the license row locked: when the row says no
     * install may be blocked ({@link License#mayHaveBlocks}), nothing is read; otherwise the license's blocks in force
     * are, and when there are none the row is told so, in the caller's transaction.
     */
    @Override
    public Optional<SeatRefusal> refusal(License license, Holder holder, Instant now) {
        if (!license.mayHaveBlocks()) {
            return Optional.empty();
        }
        List<InstallBlock> inForce = em.createNamedQuery(InstallBlock.FIND_IN_FORCE, InstallBlock.class)
                .setParameter("licenseId", license.id())
                .setParameter("now", now.toEpochMilli())
                .getResultList();
        if (inForce.isEmpty()) {
            license.noteBlocks(false);
        }
        return inForce.stream()
                .filter(block -> block.clientInstanceId().equals(holder.clientInstanceId()))
                .findFirst()
                .map(block -> new InstallBlockedException(block.blockedUntil(), now));
    }

    /**
     * Blocks the install until {@code until}; a later block replaces an earlier one. {@code license} is the license
     * row, locked by the caller for the rest of its transaction, so that a checkout clearing its flag at this moment
     * cannot leave it clear ({@link License#noteBlocks}).
     */
    public void block(License license, String clientInstanceId, Instant now, Instant until) {
        String licenseId = license.id();
        license.noteBlocks(true);
        InstallBlock block = em.find(InstallBlock.class, new InstallBlock.Key(licenseId, clientInstanceId));
        if (block == null) {
            em.persist(new InstallBlock(licenseId, clientInstanceId, now, until));
        } else {
            block.extend(now, until);
        }
    }
}
