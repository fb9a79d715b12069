package dev.keyright.seats.testing;

import dev.keyright.seats.idempotency.boundary.IdempotencyPurge;
import dev.keyright.seats.leases.boundary.LeaseReaper;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** Test deployments only: runs one sweep of each feature's housekeeping now, as their timers would. */
@Path("test-support/reap")
public class ReaperResource {

    @Inject
    LeaseReaper reaper;
    @EJB
    IdempotencyPurge idempotencyPurge;

    @POST
    public Response reap() {
        LeaseReaper.Sweep sweep = reaper.reap();
        int purged = idempotencyPurge.purge();
        return Response.ok("{\"leasesReaped\":" + sweep.leasesReaped() + ",\"idempotencyRecordsPurged\":"
                + purged + "}").type("application/json").build();
    }
}
