package dev.keyright.seats.testing;

import dev.keyright.seats.leases.boundary.LeaseReaper;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** Test deployments only: runs one reaper sweep now, as the timer would. */
@Path("test-support/reap")
public class ReaperResource {

    @Inject
    LeaseReaper reaper;

    @POST
    public Response reap() {
        LeaseReaper.Sweep sweep = reaper.reap();
        return Response.ok("{\"leasesReaped\":" + sweep.leasesReaped() + ",\"idempotencyRecordsPurged\":"
                + sweep.idempotencyRecordsPurged() + "}").type("application/json").build();
    }
}
