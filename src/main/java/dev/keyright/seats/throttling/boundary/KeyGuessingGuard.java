package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.problems.ProblemResponses;
import dev.keyright.seats.throttling.control.Throttle;
import dev.keyright.seats.web.JsonBodies;
import dev.keyright.seats.web.RequestGate;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
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
 * client API. Failures count per (address, product): the product named in an acquire's body or a pool's
 * query (renew and release name none and share one bucket), so a misconfigured install of one product
 * does not lock out the valid installs of other products behind the same NAT address; see
 * {@link Throttle} for the address-wide bound and trusted networks. The ledger is per node and in memory;
 * with N nodes an address gets up to N times the allowance.
 */
@Provider
@jakarta.enterprise.context.ApplicationScoped
public class KeyGuessingGuard implements ContainerRequestFilter, ContainerResponseFilter {

    /** The routes a license key opens: seats and activations. */
    private static final java.util.List<String> CLIENT_API = java.util.List.of("v1/seats", "v1/activations");
    private static final String ADDRESS = KeyGuessingGuard.class.getName() + ".address";
    private static final String BUCKET = KeyGuessingGuard.class.getName() + ".bucket";
    private static final String UNNAMED = "-";

    @Context
    HttpServletRequest servletRequest;
    @Inject
    Throttle throttle;
    @Inject
    Clock clock;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!isClientApi(request.getUriInfo().getPath())) {
            return;
        }
        String address = throttle.addressOf(remoteAddressOf(request), request.getHeaderString("X-Forwarded-For"));
        String bucket = bucketOf(request);
        request.setProperty(ADDRESS, address);
        request.setProperty(BUCKET, bucket);
        throttle.admit(address, bucket, clock.instant())
                .ifPresent(retryAfter -> request.abortWith(ProblemResponses.of(new TooManyAttemptsException(retryAfter))));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object address = request.getProperty(ADDRESS);
        if (address != null && response.getStatus() == 401) {
            throttle.failed((String) address, (String) request.getProperty(BUCKET), clock.instant());
        }
    }

    /** As the request gate recorded it; from the servlet request where no gate ran before this filter. */
    private String remoteAddressOf(ContainerRequestContext request) {
        return request.getProperty(RequestGate.REMOTE_ADDRESS) instanceof String recorded ? recorded : servletRequest.getRemoteAddr();
    }

    private static boolean isClientApi(String path) { // every request passes here: no stream for two prefixes
        for (String prefix : CLIENT_API) {
            if (path.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The product the caller names: the pool's query, or the acquire body's top-level {@code product}. */
    private String bucketOf(ContainerRequestContext request) {
        String product = request.getUriInfo().getQueryParameters().getFirst("product");
        if (product == null && request.hasEntity()) {
            product = productInBody();
        }
        return product != null && License.PRODUCT.matcher(product).matches() ? product : UNNAMED;
    }

    /** The acquire body's top-level {@code product}, from the body parsed once for the whole request. */
    private String productInBody() {
        return JsonBodies.find(servletRequest).map(body -> body.get("product"))
                .filter(value -> value.getValueType() == JsonValue.ValueType.STRING)
                .map(value -> ((JsonString) value).getString()).orElse(null);
    }
}
