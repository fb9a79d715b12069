package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Reservation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The seat count with the overdraft and the reservations (FlexNet's OVERDRAFT and RESERVE): how many seats a
 * holder may use, counted under the license lock with the one liveness rule. Up to {@code seats +
 * overdraftSeats} leases may be live; a holder may not take a seat that a reservation keeps for its owners
 * while they do not use it; an owner takes a seat of its own reservation whoever waits.
 */
@ApplicationScoped
public class SeatShare {

    @Inject
    LiveLeases liveLeases;

    /** What the holder may have now, given the {@code live} leases. */
    public Share of(License license, Holder holder, long live, Instant now) {
        List<Reservation> reservations = license.sharing().reservations();
        if (reservations.isEmpty()) {
            return new Share(license.seats(), license.sharing().overdraftSeats(), live, 0, false);
        }
        Set<String> users = new HashSet<>();
        Set<String> hosts = new HashSet<>();
        reservations.forEach(r -> {
            users.addAll(r.users());
            hosts.addAll(r.hosts());
        });
        Map<String, Integer> used = new HashMap<>();
        for (Holder owner : liveLeases.holdersNamed(license, users, hosts, now)) {
            Reservation.of(reservations, owner.user(), owner.host()).ifPresent(r -> used.merge(r.name(), 1, Integer::sum));
        }
        Optional<Reservation> own = Reservation.of(reservations, holder.user(), holder.host());
        boolean ownSeatFree = own.isPresent() && used.getOrDefault(own.get().name(), 0) < own.get().seats();
        int keptForOthers = 0;
        for (Reservation r : reservations) {
            if (own.isEmpty() || !own.get().name().equals(r.name())) {
                keptForOthers += Math.max(0, r.seats() - used.getOrDefault(r.name(), 0));
            }
        }
        return new Share(license.seats(), license.sharing().overdraftSeats(), live, keptForOthers, ownSeatFree);
    }

    /**
     * @param live            live leases now
     * @param keptForOthers   seats other reservations keep and their owners do not use
     * @param ownReservedFree the holder owns a reservation with a seat its owners do not use
     */
    public record Share(int seats, int overdraftSeats, long live, int keptForOthers, boolean ownReservedFree) {

        public long capacity() {
            return (long) seats + overdraftSeats;
        }

        /**
         * Whether one more seat fits for this holder with {@code ahead} installs waiting before it: an owner of a
         * free reserved seat takes it whoever waits (it was never theirs); anyone else needs a seat that is
         * neither held, nor kept by a reservation, nor due to an install ahead in the line.
         */
        public boolean admits(int ahead) {
            if (ownReservedFree) {
                return live < capacity();
            }
            return live + ahead + keptForOthers < capacity();
        }

        /** A grant now is out of the overdraft: every one of the license's seats is already live. */
        public boolean overdraft() {
            return live >= seats;
        }
    }
}
