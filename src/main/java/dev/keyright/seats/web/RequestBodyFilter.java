package dev.keyright.seats.web;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.problems.ProblemWriter;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.inject.Inject;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Receives every request body before anything parses it: at most {@value RequestBodies#MAX_BYTES} bytes
 * (413 otherwise) within {@code KEYRIGHT_BODY_TIMEOUT_SECONDS} in all (408 otherwise), read without
 * blocking, so a client that sends its body slowly or not at all holds no worker thread while it does
 * ({@link BodyReception}). A body that is all there when the request arrives goes on on the same thread;
 * one that is still coming goes on in an ASYNC dispatch of the same request once it has arrived (web.xml
 * maps this filter and the ones after it for ASYNC too), in a request context of its own and as the
 * caller the container authenticated ({@link Caller}).
 */
public class RequestBodyFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String CALLER = RequestBodyFilter.class.getName() + ".caller";

    @Inject
    transient KeyrightConfig config;
    @Inject
    transient RequestContextController requestContext;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            continueReceived(request, response, chain);
        } else if (!RequestBodies.hasBody(request)) {
            chain.doFilter(request, response);
        } else if (request.getContentLengthLong() > RequestBodies.MAX_BYTES) {
            ProblemWriter.write(response, 413);
        } else if (arrived(request) || !request.isAsyncSupported()) {
            receiveBlocking(request, response, chain); // nothing to wait for (or a target that cannot go async)
        } else {
            request.setAttribute(CALLER, Caller.of(request));
            BodyReception.start(request, response, config.bodyTimeout().toMillis());
        }
    }

    private void continueReceived(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        byte[] body = RequestBodies.of(request).orElse(null);
        if (body == null) {
            chain.doFilter(request, response);
            return;
        }
        boolean activated = requestContext.activate();
        try {
            Caller caller = (Caller) request.getAttribute(CALLER);
            chain.doFilter(caller.on(RequestBodies.withBody(request, body)), response);
        } finally {
            if (activated) {
                requestContext.deactivate();
            }
        }
    }

    /**
     * The whole body is already in the container's buffer: reading it cannot block, and the request stays
     * an ordinary one (no async cycle for the common case of a body sent with its headers).
     */
    private static boolean arrived(HttpServletRequest request) throws IOException {
        long length = request.getContentLengthLong();
        return length >= 0 && request.getInputStream().available() >= length;
    }

    private static void receiveBlocking(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        byte[] bytes = request.getInputStream().readNBytes(RequestBodies.MAX_BYTES + 1);
        if (bytes.length > RequestBodies.MAX_BYTES) {
            ProblemWriter.write(response, 413);
            return;
        }
        chain.doFilter(RequestBodies.withBody(request, bytes), response);
    }
}
