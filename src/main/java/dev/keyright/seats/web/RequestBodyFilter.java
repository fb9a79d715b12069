package dev.keyright.seats.web;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.problems.ProblemWriter;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Receives every request body before anything parses it: at most {@value RequestBodies#MAX_BYTES} bytes
 * (413 otherwise), within {@code KEYRIGHT_BODY_TIMEOUT_SECONDS} in all (408 otherwise, and the connection
 * is closed), so a client that sends its body slowly or not at all holds a worker thread no longer than
 * that ({@link BodyDeadline}). The body is then the request's one cache ({@link RequestBodies}).
 */
public class RequestBodyFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    transient KeyrightConfig config;
    @Resource
    transient ManagedScheduledExecutorService alarms;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!RequestBodies.hasBody(request)) {
            chain.doFilter(request, response);
            return;
        }
        if (request.getContentLengthLong() > RequestBodies.MAX_BYTES) {
            ProblemWriter.write(response, 413);
            return;
        }
        byte[] body;
        try {
            body = BodyDeadline.read(request, RequestBodies.MAX_BYTES, config.bodyTimeout(), alarms);
        } catch (BodyDeadline.Missed late) {
            response.setHeader("Connection", "close");
            ProblemWriter.write(response, 408);
            return;
        }
        if (body.length > RequestBodies.MAX_BYTES) {
            ProblemWriter.write(response, 413);
            return;
        }
        chain.doFilter(RequestBodies.withBody(request, body), response);
    }
}
