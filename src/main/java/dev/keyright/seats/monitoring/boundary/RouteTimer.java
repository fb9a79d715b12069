package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.monitoring.control.RequestDurations;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/** Times the answers of one route, bound to its resource method by {@link RequestTimer}. */
final class RouteTimer implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String STARTED = RouteTimer.class.getName() + ".started";

    private final RequestDurations durations;
    private final String httpMethod;
    private final String template;
    /** The route's name for its own method; a HEAD answered by a GET method is named by the request's method. */
    private final String route;

    RouteTimer(RequestDurations durations, String httpMethod, String template) {
        this.durations = durations;
        this.httpMethod = httpMethod;
        this.template = template;
        this.route = httpMethod + " " + template;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(STARTED) instanceof Long nanos) {
            String method = request.getMethod();
            durations.record(method.equals(httpMethod) ? route : method + " " + template, System.nanoTime() - nanos);
        }
    }
}
