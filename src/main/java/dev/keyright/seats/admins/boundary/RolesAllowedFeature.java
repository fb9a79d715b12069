package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.problems.ProblemResponses;
import jakarta.annotation.Priority;
import jakarta.annotation.security.RolesAllowed;
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
import java.util.List;

/**
 * Enforces {@code @RolesAllowed} on resource classes and methods with the standard JAX-RS and security
 * APIs (no provider-specific feature), so that an admin resource checks the caller's role itself and a
 * URL pattern that fails to match its path can never open it: no caller is 401 with the Basic challenge,
 * a caller without the role is 403.
 */
@Provider
public class RolesAllowedFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        RolesAllowed roles = resource.getResourceMethod().getAnnotation(RolesAllowed.class);
        if (roles == null) {
            roles = resource.getResourceClass().getAnnotation(RolesAllowed.class);
        }
        if (roles != null) {
            context.register(new RoleCheck(List.of(roles.value())));
        }
    }

    /** The check for one resource method. */
    @Priority(Priorities.AUTHORIZATION)
    static final class RoleCheck implements ContainerRequestFilter {

        private final List<String> roles;

        RoleCheck(List<String> roles) {
            this.roles = roles;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            SecurityContext security = request.getSecurityContext();
            if (security == null || security.getUserPrincipal() == null) {
                Response unauthorized = ProblemResponses.of(401);
                unauthorized.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, AdminAuthentication.CHALLENGE);
                request.abortWith(unauthorized);
            } else if (roles.stream().noneMatch(security::isUserInRole)) {
                request.abortWith(ProblemResponses.of(403));
            }
        }
    }
}
