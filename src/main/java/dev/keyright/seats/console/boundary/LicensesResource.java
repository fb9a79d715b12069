package dev.keyright.seats.console.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.activations.boundary.ActivationBody;
import dev.keyright.seats.activations.boundary.Activations;
import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.admins.boundary.AdminOnly;
import dev.keyright.seats.licenses.entity.OfflineUse;
import java.util.List;
import java.util.Map;
import dev.keyright.seats.leases.boundary.Pool;
import dev.keyright.seats.leases.boundary.Pools;
import dev.keyright.seats.leases.boundary.Seats;
import dev.keyright.seats.licenses.boundary.LicenseChange;
import dev.keyright.seats.licenses.boundary.LicenseJson;
import dev.keyright.seats.licenses.boundary.LicenseRequest;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import jakarta.ejb.EJB;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import dev.keyright.seats.leases.control.InstallBlocks;
import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The admin API for licenses (the administrator only: the admin paths' authentication filter, and the check on the class itself). */
@AdminOnly
@Path("v1/admin/licenses")
@Produces(MediaType.APPLICATION_JSON)
public class LicensesResource {

    @EJB
    Licenses licenses;
    @EJB
    Seats seats;
    @EJB
    Pools pools;
    @EJB
    Activations activations;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String body) {
        Licenses.IssuedLicense issued = licenses.issue(LicenseRequest.parse(body));
        String json = LicenseJson.of(issued.license()).add("licenseKey", issued.licenseKey()).build().toString();
        // A relative Location on every server: Response.created would make it absolute on RESTEasy (WildFly).
        return Response.status(Response.Status.CREATED).header(HttpHeaders.LOCATION, "/v1/admin/licenses/" + issued.license().id())
                .entity(json).build();
    }

    @GET
    public Response list() {
        JsonArrayBuilder all = JSON.createArrayBuilder();
        List<License> every = licenses.all();
        Map<String, List<Activation>> machines = machinesOf(every);
        for (Pool pool : pools.poolsOf(every)) {
            all.add(withPool(pool, machines.getOrDefault(pool.license().id(), List.of())));
        }
        return Response.ok(JSON.createObjectBuilder().add("licenses", all).build().toString()).build();
    }

    @GET
    @Path("{licenseId}")
    public Response get(@PathParam("licenseId") String licenseId) {
        License license = licenses.get(licenseId);
        return Response.ok(withPool(pools.poolOf(license)).build().toString()).build();
    }

    @PATCH
    @Path("{licenseId}")
    @Consumes({MediaType.APPLICATION_JSON, "application/merge-patch+json"})
    public Response change(@PathParam("licenseId") String licenseId, String body) {
        License license = licenses.change(licenseId, LicenseChange.parse(body));
        return Response.ok(withPool(pools.poolOf(license)).build().toString()).build();
    }

    /** A new key for the license, shown this once; the old key stops working at once. */
    @POST
    @Path("{licenseId}/key")
    public Response replaceKey(@PathParam("licenseId") String licenseId) {
        Licenses.IssuedLicense issued = licenses.replaceKey(licenseId);
        return Response.ok(withPool(pools.poolOf(issued.license())).add("licenseKey", issued.licenseKey()).build().toString()).build();
    }

    /** Revoke a seat; {@code ?blockSeconds=N} (0..86,400) also refuses its install for N seconds, on every node. */
    @DELETE
    @Path("{licenseId}/leases/{leaseId}")
    public Response revoke(@PathParam("licenseId") String licenseId, @PathParam("leaseId") String leaseId,
                           @QueryParam("blockSeconds") String blockSeconds) {
        seats.revoke(licenseId, leaseId, blockSeconds(blockSeconds));
        return Response.noContent().build();
    }

    private static int blockSeconds(String value) {
        if (value == null) {
            return 0;
        }
        if (value.matches("[0-9]{1,5}")) {
            int seconds = Integer.parseInt(value);
            if (seconds <= InstallBlocks.MAX_BLOCK_SECONDS) {
                return seconds;
            }
        }
        throw new InvalidRequestException("blockSeconds", "must be a whole number of seconds from 0 to " + InstallBlocks.MAX_BLOCK_SECONDS);
    }

    /** Frees a node-locked license's machine slot now; that machine's next refresh is 410. */
    @DELETE
    @Path("{licenseId}/activations/{activationId}")
    public Response revokeActivation(@PathParam("licenseId") String licenseId, @PathParam("activationId") String activationId) {
        activations.revoke(licenseId, activationId);
        return Response.noContent().build();
    }

    /** A license with its live pool, holders with their lease ids (for revocation), and its live activations. */
    private JsonObjectBuilder withPool(Pool pool) {
        return withPool(pool, machinesOf(List.of(pool.license())).getOrDefault(pool.license().id(), List.of()));
    }

    /** The live activations of the node-locked ones of these licenses: no query when none is node-locked. */
    private Map<String, List<Activation>> machinesOf(List<License> some) {
        return activations.liveOf(some.stream()
                .filter(l -> l.offline().model() == OfflineUse.Model.NODE_LOCKED).map(License::id).toList());
    }

    private static JsonObjectBuilder withPool(Pool pool, List<Activation> machines) {
        return ActivationBody.addTo(LicenseJson.of(pool.license()).add("pool", pool.toAdminJson()), pool.license(), machines);
    }
}
