package dev.keyright.seats.testing;

import dev.keyright.seats.leases.boundary.LicenseFlags;
import jakarta.ejb.EJB;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** Test deployments only: runs the start-up's flagging of licenses with blocks or waiters now, as a node's start would. */
@Path("test-support/license-flags")
public class LicenseFlagsResource {

    @EJB
    LicenseFlags flags;

    @POST
    public Response flagWhatIsThere() {
        return Response.ok("{\"licensesFlagged\":" + flags.flagWhatIsThere() + "}").type("application/json").build();
    }
}
