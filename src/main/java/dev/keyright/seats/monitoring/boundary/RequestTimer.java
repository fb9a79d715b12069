package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.monitoring.control.RequestDurations;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Times every answer of a matched route, labelled by its template ({@code POST /v1/seats/{leaseId}/renew}),
 * never by a raw path. Each resource method gets its own {@link RouteTimer}, named once when the application
 * starts: a request asks nothing of the container's request-scoped {@link ResourceInfo} (a JFR profile put
 * those lookups at about 1 % of a renew).
 */
@Provider
public class RequestTimer implements DynamicFeature {

    @Inject
    RequestDurations durations;

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        Method method = resource.getResourceMethod();
        if (method != null) {
            context.register(new RouteTimer(durations, httpMethodOf(method), template(resource.getResourceClass(), method)));
        }
    }

    /** The HTTP method the resource method answers ({@code @GET}, {@code @POST}, ...), or null for none. */
    private static String httpMethodOf(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod designator = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (designator != null) {
                return designator.value();
            }
        }
        return null;
    }

    static String template(Class<?> type, Method method) {
        Path outer = type.getAnnotation(Path.class);
        Path inner = method.getAnnotation(Path.class);
        String path = "/" + strip(outer == null ? "" : outer.value()) + (inner == null ? "" : "/" + strip(inner.value()));
        // a template's regular expression ({leaseId: lease_[0-9a-f]{32}}) is not part of the route's name
        return path.replaceAll("\\{\\s*([A-Za-z0-9_]+)\\s*:[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\}", "{$1}").replaceAll("/+$", "");
    }

    private static String strip(String path) {
        return path.replaceAll("^/+|/+$", "");
    }
}
