package dev.keyright.seats.throttling.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.problems.ProblemResponses;
import dev.keyright.seats.throttling.control.Throttle;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParser;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.regex.Pattern;

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

    private static final String CLIENT_API = "v1/seats";
    private static final String ADDRESS = KeyGuessingGuard.class.getName() + ".address";
    private static final String BUCKET = KeyGuessingGuard.class.getName() + ".bucket";
    private static final Pattern PRODUCT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final String UNNAMED = "-";

    @Context
    HttpServletRequest servletRequest;
    @Inject
    Throttle throttle;
    @Inject
    Clock clock;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!request.getUriInfo().getPath().startsWith(CLIENT_API)) {
            return;
        }
        String address = throttle.addressOf(servletRequest.getRemoteAddr(), request.getHeaderString("X-Forwarded-For"));
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

    /** The product the caller names: the pool's query, or the acquire body's top-level {@code product}. */
    private static String bucketOf(ContainerRequestContext request) {
        String product = request.getUriInfo().getQueryParameters().getFirst("product");
        if (product == null && request.hasEntity()) {
            product = productInBody(request);
        }
        return product != null && PRODUCT.matcher(product).matches() ? product : UNNAMED;
    }

    private static String productInBody(ContainerRequestContext request) {
        byte[] body;
        try {
            body = request.getEntityStream().readNBytes(64 * 1024);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        request.setEntityStream(new ByteArrayInputStream(body));
        try (JsonParser parser = JSON.createParser(new ByteArrayInputStream(body))) {
            int depth = 0;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.START_OBJECT || event == JsonParser.Event.START_ARRAY) {
                    depth++;
                } else if (event == JsonParser.Event.END_OBJECT || event == JsonParser.Event.END_ARRAY) {
                    depth--;
                } else if (event == JsonParser.Event.KEY_NAME && depth == 1 && parser.getString().equals("product")) {
                    return parser.hasNext() && parser.next() == JsonParser.Event.VALUE_STRING ? parser.getString() : null;
                }
            }
        } catch (JsonException | IllegalStateException | UnsupportedOperationException | java.util.NoSuchElementException notJson) {
            // the resource refuses it; for the throttle it names no product
        }
        return null;
    }
}
