package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.boundary.IdempotentRequests;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.entity.LeaseNotFoundException;
import dev.keyright.seats.web.JsonBodies;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.regex.Pattern;

/** The client API: acquire, renew, release, pool. */
@ApplicationScoped // one instance: no resource and no EJB proxy built per request
@Path("v1/seats")
@Produces(MediaType.APPLICATION_JSON)
public class SeatsResource {

    private static final Pattern LEASE_ID = Pattern.compile("lease_[0-9a-f]{32}");

    @Inject
    Seats seats;
    @Inject
    Pools pools;

    @POST
    @Path("acquire")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response acquire(@Context HttpServletRequest request) {
        AcquireRequest acquire = AcquireRequest.from(JsonBodies.of(request));
        return answer(seats.acquire(acquire, IdempotentRequests.claims(request), Answers::of));
    }

    /** 201 + Location for a new seat, 200 for the same one, and a replay exactly as stored, saying so. */
    private static Response answer(Grant grant) {
        StoredResponse stored = Answers.of(grant);
        Response.ResponseBuilder response = Response.status(stored.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(stored.body());
        if (stored.location() != null) {
            response.location(URI.create(stored.location()));
        }
        if (grant.kind() == Grant.Kind.REPLAY) {
            response.header(IdempotentRequests.REPLAYED_HEADER, "true");
        }
        return response.build();
    }

    @POST
    @Path("{leaseId}/renew")
    public Response renew(@PathParam("leaseId") String leaseId, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return answer(seats.renew(LicenseAuthorization.key(authorization), checked(leaseId)));
    }

    @POST
    @Path("{leaseId}/release")
    public Response release(@PathParam("leaseId") String leaseId, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        seats.release(LicenseAuthorization.key(authorization), checked(leaseId));
        return Response.noContent().build();
    }

    @GET
    @Path("pool")
    public Response pool(@QueryParam("product") String product, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return Response.ok(pools.pool(product, LicenseAuthorization.key(authorization)).toClientJson().toString()).build();
    }

    /** A malformed lease id names no lease: the same 404 as an unknown one. */
    private static String checked(String leaseId) {
        if (leaseId == null || !LEASE_ID.matcher(leaseId).matches()) {
            throw new LeaseNotFoundException();
        }
        return leaseId;
    }
}
