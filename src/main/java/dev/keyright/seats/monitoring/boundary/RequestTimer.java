package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.monitoring.control.RequestDurations;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Times every answer of a matched route, labelled by its template ({@code POST /v1/seats/{leaseId}/renew}), never by a raw path. */
@Provider
public class RequestTimer implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String STARTED = RequestTimer.class.getName() + ".started";
    /** Each resource method's path template, worked out once (annotations and two regular expressions). */
    private static final Map<Method, String> TEMPLATES = new ConcurrentHashMap<>();

    @Inject
    RequestDurations durations;
    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object started = request.getProperty(STARTED);
        Method method = resource == null ? null : resource.getResourceMethod();
        if (started instanceof Long nanos && method != null) {
            Class<?> type = resource.getResourceClass();
            String template = TEMPLATES.computeIfAbsent(method, m -> template(type, m));
            durations.record(request.getMethod() + " " + template, System.nanoTime() - nanos);
        }
    }

    private static String template(Class<?> type, Method method) {
        jakarta.ws.rs.Path outer = type.getAnnotation(jakarta.ws.rs.Path.class);
        jakarta.ws.rs.Path inner = method.getAnnotation(jakarta.ws.rs.Path.class);
        String path = "/" + strip(outer == null ? "" : outer.value()) + (inner == null ? "" : "/" + strip(inner.value()));
        // a template's regular expression ({leaseId: lease_[0-9a-f]{32}}) is not part of the route's name
        return path.replaceAll("\\{\\s*([A-Za-z0-9_]+)\\s*:[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\}", "{$1}").replaceAll("/+$", "");
    }

    private static String strip(String path) {
        return path.replaceAll("^/+|/+$", "");
    }
}
