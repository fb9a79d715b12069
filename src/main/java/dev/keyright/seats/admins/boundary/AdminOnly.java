package dev.keyright.seats.admins.boundary;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A resource class or method only the administrator may call, checked by the resource itself ({@link AdminOnlyFeature})
 * besides the admin paths' authentication filter. Not {@code @RolesAllowed}: the application keeps the container's
 * security out (no constraint, no authentication module), and a server that enforces {@code @RolesAllowed} on JAX-RS
 * resources with its own security context (GlassFish 7's MicroProfile JWT filter) would ask it for a caller it never has.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface AdminOnly {
}
