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

/** "23 of 25 seats in use", who holds them, and who waits for one, first first. */
public record Pool(License license, List<Lease> holders, List<QueueEntry> waiting) {

    public int inUse() {
        return holders.size();
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
        return JSON.createObjectBuilder()
                .add("product", license.product())
                .add("inUse", inUse())
                .add("max", license.seats())
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
