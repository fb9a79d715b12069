package dev.keyright.seats.problems;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

/**
 * A request body must say what it is, in UTF-8: a body without {@code Content-Type}, or one that declares
 * another charset (or one that does not exist), is 415, not guessed at. So the bytes a request's
 * fingerprint is made of are the only reading of its body.
 */
@Provider
public class RequireContentType implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        if (!request.hasEntity()) {
            return;
        }
        MediaType type = request.getMediaType();
        if (type == null || !isUtf8(type.getParameters().get(MediaType.CHARSET_PARAMETER))) {
            request.abortWith(ProblemResponses.of(415));
        }
    }

    static boolean isUtf8(String charset) {
        return charset == null || charset.equalsIgnoreCase("utf-8") || charset.equalsIgnoreCase("utf8");
    }
}
