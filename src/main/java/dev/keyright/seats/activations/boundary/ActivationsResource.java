package dev.keyright.seats.activations.boundary;

import dev.keyright.seats.activations.entity.ActivationNotFoundException;
import dev.keyright.seats.idempotency.boundary.IdempotentRequests;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.boundary.LicenseAuthorization;
import dev.keyright.seats.web.JsonBodies;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.regex.Pattern;

/** The node-locked client API: activate a machine, refresh its certificate, deactivate it. */
@ApplicationScoped
@Path("v1/activations")
@Produces(MediaType.APPLICATION_JSON)
public class ActivationsResource {

    private static final Pattern ACTIVATION_ID = Pattern.compile("act_[0-9a-f]{32}");

    @EJB
    Activations activations;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response activate(@Context HttpServletRequest request) {
        ActivationRequest activation = ActivationRequest.from(JsonBodies.of(request));
        ActivationCheckout.Answer answer = activations.activate(activation, IdempotentRequests.claims(request));
        StoredResponse stored = answer.response();
        Response.ResponseBuilder response = Response.status(stored.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(stored.body());
        if (stored.location() != null) {
            response.header(HttpHeaders.LOCATION, stored.location()); // as stored: relative on every server
        }
        if (answer.replayed()) {
            response.header(IdempotentRequests.REPLAYED_HEADER, "true");
        }
        return response.build();
    }

    @POST
    @Path("{activationId}/refresh")
    public Response refresh(@PathParam("activationId") String activationId,
                            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        return Response.ok(activations.refresh(LicenseAuthorization.key(authorization), checked(activationId))).build();
    }

    @DELETE
    @Path("{activationId}")
    public Response deactivate(@PathParam("activationId") String activationId,
                               @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        activations.deactivate(LicenseAuthorization.key(authorization), checked(activationId));
        return Response.noContent().build();
    }

    /** A malformed activation id names no activation: the same 404 as an unknown one. */
    static String checked(String activationId) {
        if (activationId == null || !ACTIVATION_ID.matcher(activationId).matches()) {
            throw new ActivationNotFoundException();
        }
        return activationId;
    }
}
