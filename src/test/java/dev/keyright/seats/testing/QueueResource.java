package dev.keyright.seats.testing;

import dev.keyright.seats.leases.boundary.WaitingRoom;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Test deployments only: how many acquires this node holds now ({@code Prefer: wait}). */
@Path("test-support/queue/held")
public class QueueResource {

    @Inject
    WaitingRoom waitingRoom;

    @GET
    public String held() {
        return String.valueOf(waitingRoom.heldHere());
    }
}
