package dev.keyright.seats.problems;

import jakarta.ws.rs.core.Response;

/** The one way a problem becomes a JAX-RS response. */
public final class ProblemResponses {

    private ProblemResponses() {
    }

    public static Response of(BusinessException e) {
        Response.ResponseBuilder response = Response.status(e.status())
                .type(Problems.MEDIA_TYPE)
                .entity(Problems.document(e));
        e.retryAfterSeconds().ifPresent(seconds -> response.header("Retry-After", seconds));
        e.headers().forEach(response::header);
        return response.build();
    }

    public static Response of(int status) {
        return Response.status(status).type(Problems.MEDIA_TYPE).entity(Problems.forStatus(status)).build();
    }
}
