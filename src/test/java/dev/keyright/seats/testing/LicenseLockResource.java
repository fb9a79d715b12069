package dev.keyright.seats.testing;

import dev.keyright.seats.licenses.entity.License;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Test deployments only: holds a license's row lock inside the server (as a stuck checkout would) for a while,
 * so the lock-timeout 503 can be proven on a database the tests cannot reach from outside (the embedded one).
 */
@Stateless
@Path("test-support/license-lock")
public class LicenseLockResource {

    private static final AtomicBoolean HELD = new AtomicBoolean();

    @PersistenceContext
    EntityManager em;

    @POST
    @Path("{licenseId}")
    public String hold(@PathParam("licenseId") String licenseId, @QueryParam("millis") long millis) {
        em.find(License.class, licenseId, LockModeType.PESSIMISTIC_WRITE);
        HELD.set(true);
        try {
            LockSupport.parkNanos(millis * 1_000_000L);
        } finally {
            HELD.set(false);
        }
        return "released";
    }

    @GET
    @Path("held")
    public String held() {
        return String.valueOf(HELD.get());
    }
}
