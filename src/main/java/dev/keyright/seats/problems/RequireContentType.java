package dev.keyright.seats.problems;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

/** A request body must say what it is: a body without {@code Content-Type} is 415, not guessed at. */
@Provider
public class RequireContentType implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.hasEntity() && request.getMediaType() == null) {
            request.abortWith(ProblemResponses.of(415));
        }
    }
}
