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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Receives every request body before anything parses it: at most {@value RequestBodies#MAX_BYTES} bytes
 * (413 otherwise), within {@code KEYRIGHT_BODY_TIMEOUT_SECONDS} in all (408 otherwise, and the connection
 * is closed), so a client that sends its body slowly or not at all holds a worker thread no longer than
 * that ({@link BodyDeadlines}: one watch for all reads, run by the container every
 * {@link BodyDeadlines#TICK}). The body is then the request's one cache ({@link RequestBodies}).
 */
public class RequestBodyFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(RequestBodyFilter.class.getName());

    @Inject
    transient KeyrightConfig config;
    @Resource
    transient ManagedScheduledExecutorService alarms;
    private transient BodyDeadlines deadlines;
    private transient ScheduledFuture<?> watch;

    @Override
    public void init() {
        deadlines = new BodyDeadlines(System::nanoTime);
        long tick = BodyDeadlines.TICK.toMillis();
        watch = alarms.scheduleWithFixedDelay(this::expireDue, tick, tick, TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        if (watch != null) {
            watch.cancel(false);
        }
    }

    private void expireDue() {
        try {
            deadlines.expireDue();
        } catch (RuntimeException e) { // a periodic task that throws is never run again: keep the watch alive
            LOG.log(Level.WARNING, "body deadline watch", e);
        }
    }

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
            body = deadlines.read(request, RequestBodies.MAX_BYTES, config.bodyTimeout());
        } catch (BodyDeadlines.Missed late) {
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
