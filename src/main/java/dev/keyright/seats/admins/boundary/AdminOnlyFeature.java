package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemResponses;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

/**
 * Enforces {@link AdminOnly} on resource classes and methods with the standard JAX-RS API (no provider-specific
 * feature), so that an admin resource checks its caller itself and a URL pattern of the admin's authentication
 * filter that fails to match its path can never open it: no caller is 401 with the Basic challenge, a caller who
 * is not the administrator is 403. The caller is the one the filter passed on ({@link AdminAuthentication}).
 */
@Provider
public class AdminOnlyFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        if (resource.getResourceMethod().isAnnotationPresent(AdminOnly.class)
                || resource.getResourceClass().isAnnotationPresent(AdminOnly.class)) {
            context.register(new AdminCheck());
        }
    }

    /** The check for one resource method. */
    @Priority(Priorities.AUTHORIZATION)
    static final class AdminCheck implements ContainerRequestFilter {

        @Override
        public void filter(ContainerRequestContext request) {
            SecurityContext security = request.getSecurityContext();
            if (security == null || security.getUserPrincipal() == null) {
                Response unauthorized = ProblemResponses.of(401);
                unauthorized.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, AdminAuthentication.CHALLENGE);
                request.abortWith(unauthorized);
            } else if (!security.isUserInRole(AdminAuthentication.ROLE)) {
                request.abortWith(ProblemResponses.of(403));
            }
        }
    }
}
