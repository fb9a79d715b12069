package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.boundary.IdempotentRequests;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.entity.LeaseNotFoundException;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import dev.keyright.seats.web.Preferences;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/** The client API: acquire, renew, borrow, release, pool. */
@ApplicationScoped // one instance: no resource and no EJB proxy built per request
@Path("v1/seats")
@Produces(MediaType.APPLICATION_JSON)
public class SeatsResource {

    private static final Pattern LEASE_ID = Pattern.compile("lease_[0-9a-f]{32}");

    @EJB
    Seats seats;
    @EJB
    Pools pools;

    @Inject
    WaitingRoom waitingRoom;

    /**
     * Acquire. With {@code Prefer: wait=N} an install that cannot have a seat now keeps its place in the queue
     * and its request is held, without a thread, by the {@link WaitingRoom} for up to N seconds.
     */
    @POST
    @Path("acquire")
    @Consumes(MediaType.APPLICATION_JSON)
    public void acquire(@Context HttpServletRequest request, @Suspended AsyncResponse response) {
        try {
            AcquireRequest acquire = AcquireRequest.from(JsonBodies.of(request));
            OptionalInt wait = Preferences.waitSeconds(request.getHeaders(Preferences.PREFER));
            Grant grant = seats.acquire(acquire, IdempotentRequests.claims(request), Answers::of, wait.isPresent());
            if (grant.kind() == Grant.Kind.QUEUED) {
                waitingRoom.hold(grant, wait.getAsInt(), response);
            } else {
                response.resume(answer(grant));
            }
        } catch (RuntimeException e) {
            response.resume(e);
        }
    }

    /** Gives up a place in the queue: 204, whether or not the install was waiting. */
    @DELETE
    @Path("queue/{clientInstanceId}")
    public Response leaveQueue(@PathParam("clientInstanceId") String clientInstanceId,
                               @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        if (clientInstanceId == null || !clientInstanceId.matches(AcquireRequest.CLIENT_INSTANCE_ID_PATTERN)) {
            throw new InvalidRequestException("clientInstanceId", AcquireRequest.CLIENT_INSTANCE_ID_RULE);
        }
        String licenseId = seats.leaveQueue(LicenseAuthorization.key(authorization), clientInstanceId);
        waitingRoom.leave(licenseId, clientInstanceId);
        return Response.noContent().build();
    }

    /** A seat handed to a held request: the answer of {@link #answer(Grant)}, saying the wait was applied. */
    static Response answer(Grant grant, String preferenceApplied) {
        return Response.fromResponse(answer(grant)).header(Preferences.APPLIED, preferenceApplied).build();
    }

    /** 201 + Location for a new seat, 200 for the same one, and a replay exactly as stored, saying so. */
    private static Response answer(Grant grant) {
        StoredResponse stored = Answers.of(grant);
        Response.ResponseBuilder response = Response.status(stored.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(stored.body());
        if (stored.location() != null) {
            response.header(HttpHeaders.LOCATION, stored.location()); // as stored: relative on every server
        }
        if (grant.kind() == Grant.Kind.REPLAY) {
            response.header(IdempotentRequests.REPLAYED_HEADER, "true");
        }
        return response.build();
    }

    /** The lease a new seat's {@code Location} names, for its holder: the body without a new token. */
    @GET
    @Path("{leaseId: lease_[0-9a-f]{32}}") // only a lease id: /v1/seats/ACQUIRE stays a 404, not a 405
    public Response lease(@PathParam("leaseId") String leaseId, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return Response.ok(seats.lease(LicenseAuthorization.key(authorization), checked(leaseId))).build();
    }

    @POST
    @Path("{leaseId}/renew")
    public Response renew(@PathParam("leaseId") String leaseId, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return answer(seats.renew(LicenseAuthorization.key(authorization), checked(leaseId)));
    }

    /** Takes a live seat off the network for {@code {"hours": N}}: 200 with {@code borrowedUntil} and a token that says so. */
    @POST
    @Path("{leaseId}/borrow")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response borrow(@PathParam("leaseId") String leaseId, @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
                           @Context HttpServletRequest request) {
        BorrowRequest borrow = BorrowRequest.from(JsonBodies.of(request));
        return answer(seats.borrow(LicenseAuthorization.key(authorization), checked(leaseId), borrow.hours()));
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
