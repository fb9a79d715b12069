package dev.keyright.seats.testing;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** Test deployments only: moves or freezes {@link MovableClock}. */
@Path("test-support/clock")
public class ClockResource {

    /** Moves time forward (or back) by {@code millis}. */
    @POST
    @Path("advance")
    public Response advance(@QueryParam("millis") long millis) {
        if (MovableClock.FROZEN_AT.get() != Long.MIN_VALUE) {
            MovableClock.FROZEN_AT.addAndGet(millis);
        } else {
            MovableClock.OFFSET_MILLIS.addAndGet(millis);
        }
        return now();
    }

    /** Stops time at an exact epoch millisecond. */
    @POST
    @Path("freeze")
    public Response freeze(@QueryParam("at") long epochMillis) {
        MovableClock.FROZEN_AT.set(epochMillis);
        return now();
    }

    /** Lets time run again, from where it stands now (offset kept). */
    @DELETE
    @Path("freeze")
    public Response thaw() {
        long frozen = MovableClock.FROZEN_AT.getAndSet(Long.MIN_VALUE);
        if (frozen != Long.MIN_VALUE) {
            MovableClock.OFFSET_MILLIS.set(frozen - System.currentTimeMillis());
        }
        return now();
    }

    /** Back to system time: no offset, not frozen (tests reset it after each test, so none sees another's). */
    @DELETE
    public Response reset() {
        MovableClock.FROZEN_AT.set(Long.MIN_VALUE);
        MovableClock.OFFSET_MILLIS.set(0);
        return now();
    }

    @GET
    public Response now() {
        return Response.ok(String.valueOf(new MovableClock().clock().millis())).type("text/plain").build();
    }
}
