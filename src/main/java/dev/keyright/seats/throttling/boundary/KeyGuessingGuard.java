package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.problems.ProblemResponses;
import dev.keyright.seats.throttling.control.Throttle;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.time.Clock;

/**
 * Slows, then refuses with 429, a client address that keeps presenting invalid license keys to the
 * client API. Addresses are judged separately: a correct key from elsewhere is never affected. The
 * ledger is per node and in memory; with N nodes an address gets up to N times the allowance.
 */
@Provider
@jakarta.enterprise.context.ApplicationScoped
public class KeyGuessingGuard implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String CLIENT_API = "v1/seats";
    private static final String ADDRESS = KeyGuessingGuard.class.getName() + ".address";

    @Context
    HttpServletRequest servletRequest;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;

    private Throttle throttle;

    @PostConstruct
    void init() {
        throttle = Throttle.configured(config);
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (!request.getUriInfo().getPath().startsWith(CLIENT_API)) {
            return;
        }
        String address = throttle.addressOf(servletRequest.getRemoteAddr(), request.getHeaderString("X-Forwarded-For"));
        request.setProperty(ADDRESS, address);
        throttle.admit(address, clock.instant())
                .ifPresent(retryAfter -> request.abortWith(ProblemResponses.of(new TooManyAttemptsException(retryAfter))));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object address = request.getProperty(ADDRESS);
        if (address != null && response.getStatus() == 401) {
            throttle.failed((String) address, clock.instant());
        }
    }
}
