package dev.keyright.seats.testing;

import dev.keyright.seats.leases.control.KnownLeases;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Test deployments only: whether this node remembers a lease's fixed facts (its next heartbeat is then one statement). */
@Path("test-support/known-leases/{leaseId}")
public class KnownLeasesResource {

    @Inject
    KnownLeases knownLeases;

    @GET
    public String known(@PathParam("leaseId") String leaseId) {
        return String.valueOf(knownLeases.find(leaseId).isPresent());
    }
}
