package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.licenses.entity.License;
import java.time.Instant;
import java.util.Optional;

/**
 * One rule a checkout asks before it counts seats: may this holder have one more? Asked under the license lock,
 * in the checkout transaction, with the one liveness rule; each rule is one class ({@link UserLimit},
 * {@link HostLimit}, {@link InstallBlocks}). The seat count itself, with the overdraft and the reservations,
 * is {@link SeatShare}'s.
 */
public interface SeatPolicy {

    /** The refusal this rule makes for {@code holder} now, or empty when it lets the checkout go on. */
    Optional<SeatRefusal> refusal(License license, Holder holder, Instant now);
}
