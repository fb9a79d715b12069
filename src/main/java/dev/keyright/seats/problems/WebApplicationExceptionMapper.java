package dev.keyright.seats.problems;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** JAX-RS's own refusals (unknown route, wrong method, wrong media type, unreadable body) as problems. */
@Provider
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException e) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        Response problem = ProblemResponses.of(status);
        if (e.getResponse() != null && e.getResponse().getHeaderString(HttpHeaders.ALLOW) != null) {
            return Response.fromResponse(problem).header(HttpHeaders.ALLOW, e.getResponse().getHeaderString(HttpHeaders.ALLOW)).build();
        }
        return problem;
    }
}
