package dev.keyright.seats.leases.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.web.Timestamps;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.licenses.entity.License;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import dev.keyright.seats.licenses.entity.Reservation;

/** "23 of 25 seats in use", who holds them, and who waits for one, first first. */
public record Pool(License license, List<Lease> holders, List<QueueEntry> waiting) {

    public int inUse() {
        return holders.size();
    }

    /** Live seats granted beyond the license's seats, out of its overdraft. */
    public long overdraftInUse() {
        return holders.stream().filter(Lease::overdraft).count();
    }

    /** Holders per reservation (a holder counts for the first reservation it matches). */
    public Map<String, Integer> reservedInUse() {
        Map<String, Integer> used = new HashMap<>();
        List<Reservation> reservations = license.sharing().reservations();
        for (Lease lease : holders) {
            Reservation.of(reservations, lease.holder().user(), lease.holder().host())
                    .ifPresent(r -> used.merge(r.name(), 1, Integer::sum));
        }
        return used;
    }

    /**
     * The client's view: holders without lease ids (those are the holders' capabilities) and without
     * client instance ids (with one, any key holder could reattach to another install's lease, or give up
     * another install's place in the queue).
     */
    public JsonObject toClientJson() {
        return json(false);
    }

    /** The administrator's view: holders with their lease ids and client instance ids, for revocation. */
    public JsonObject toAdminJson() {
        return json(true);
    }

    private JsonObject json(boolean admin) {
        JsonArrayBuilder list = JSON.createArrayBuilder();
        for (Lease lease : holders) {
            JsonObjectBuilder holder = JSON.createObjectBuilder();
            if (admin) {
                holder.add("leaseId", lease.id());
            }
            addNullable(holder, "user", lease.holder().user());
            addNullable(holder, "host", lease.holder().host());
            if (admin) {
                holder.add("clientInstanceId", lease.holder().clientInstanceId());
            }
            holder.add("acquiredAt", Timestamps.format(lease.acquiredAt()))
                    .add("expiresAt", Timestamps.format(lease.expiresAt()));
            if (lease.overdraft()) {
                holder.add("overdraft", true);
            }
            lease.releasedAt().ifPresent(released -> holder.add("releasedAt", Timestamps.format(released))
                    .add("lingeringUntil", Timestamps.format(lease.expiresAt())));
            lease.borrowedUntil().ifPresent(until -> holder.add("borrowedUntil", Timestamps.format(until)));
            list.add(holder);
        }
        JsonArrayBuilder queue = JSON.createArrayBuilder();
        int position = 0;
        for (QueueEntry entry : waiting) {
            JsonObjectBuilder waiter = JSON.createObjectBuilder();
            addNullable(waiter, "user", entry.holder().user());
            addNullable(waiter, "host", entry.holder().host());
            if (admin) {
                waiter.add("clientInstanceId", entry.holder().clientInstanceId());
            }
            queue.add(waiter.add("since", Timestamps.format(entry.joinedAt())).add("position", ++position));
        }
        JsonArrayBuilder reserved = JSON.createArrayBuilder();
        Map<String, Integer> used = reservedInUse();
        for (Reservation reservation : license.sharing().reservations()) {
            reserved.add(JSON.createObjectBuilder().add("name", reservation.name()).add("seats", reservation.seats())
                    .add("inUse", Math.min(reservation.seats(), used.getOrDefault(reservation.name(), 0))));
        }
        return JSON.createObjectBuilder()
                .add("product", license.product())
                .add("inUse", inUse())
                .add("max", license.seats())
                .add("overdraftSeats", license.sharing().overdraftSeats())
                .add("overdraftInUse", overdraftInUse())
                .add("reserved", reserved)
                .add("holders", list)
                .add("queued", waiting.size())
                .add("waiting", queue)
                .build();
    }

    private static void addNullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }
}
