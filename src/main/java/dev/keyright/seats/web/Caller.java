package dev.keyright.seats.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The caller as the container authenticated it on the request's first dispatch, carried into the ASYNC
 * dispatch that continues it once its body has arrived. Payara ends the authentication mechanism's
 * identity with the first dispatch, so an ASYNC dispatch racing that end saw no caller now and then
 * (403 for a valid administrator in about 1 of 300 requests). The roles asked are the ones the
 * application declares.
 */
record Caller(Principal principal, Set<String> roles) {

    /** Every role the application checks: {@code keyright-admin}. */
    private static final Set<String> DECLARED_ROLES = Set.of("keyright-admin");

    static Caller of(HttpServletRequest request) {
        Principal principal = request.getUserPrincipal();
        return new Caller(principal, principal == null ? Set.of()
                : DECLARED_ROLES.stream().filter(request::isUserInRole).collect(Collectors.toUnmodifiableSet()));
    }

    HttpServletRequest on(HttpServletRequest request) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public Principal getUserPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String role) {
                return roles.contains(role);
            }

            @Override
            public String getRemoteUser() {
                return principal == null ? null : principal.getName();
            }

            @Override
            public String getAuthType() {
                return principal == null ? null : super.getAuthType();
            }
        };
    }
}
