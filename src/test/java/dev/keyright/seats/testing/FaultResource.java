package dev.keyright.seats.testing;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * Test deployments only: a request that fails the way a server fault does (a bug: {@code kind=bug}) or the way
 * the container reports a database that went away ({@code kind=database}: the pool's exception chain), so the
 * answers' shape is checked through the real mappers.
 */
@Path("test-support/fault")
public class FaultResource {

    @POST
    public String fail(@QueryParam("kind") String kind) {
        if ("database".equals(kind)) {
            throw new jakarta.persistence.PersistenceException("Exception [EclipseLink-4002]",
                    new java.sql.SQLNonTransientConnectionException("Could not connect to 127.0.0.1:3306: Connection refused", "08000"));
        }
        throw new IllegalStateException("internal detail: secret-table-name in dev.keyright.Internal");
    }
}
