package dev.keyright.seats.monitoring.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code GET /v1/health}: readiness and liveness as plain JSON in the MicroProfile Health shape, on any
 * server (Payara also publishes the same checks at its own {@code /health}). 503 when not ready.
 */
@ApplicationScoped // one instance: no resource and no EJB proxy built per request
@Path("v1/health")
public class HealthResource {

    @Inject
    Health health;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response check() {
        Health.Status status = health.check();
        String json = JSON.createObjectBuilder()
                .add("status", status.up() ? "UP" : "DOWN")
                .add("checks", JSON.createArrayBuilder()
                        .add(JSON.createObjectBuilder().add("name", "database").add("status", status.databaseReachable() ? "UP" : "DOWN")
                                .add("data", JSON.createObjectBuilder().add("reachable", status.databaseReachable())))
                        .add(JSON.createObjectBuilder().add("name", "clock").add("status", "UP")
                                .add("data", JSON.createObjectBuilder().add("driftMillis", status.clockDriftMillis())
                                        .add("warning", status.clockDriftWarning()))))
                .build().toString();
        CacheControl noCache = new CacheControl();
        noCache.setNoStore(true);
        return Response.status(status.up() ? 200 : 503).type(MediaType.APPLICATION_JSON).cacheControl(noCache).entity(json).build();
    }
}
