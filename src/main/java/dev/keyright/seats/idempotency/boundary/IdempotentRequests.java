package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.boundary.AcquireOutcome;
import dev.keyright.seats.leases.boundary.Seats;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** What {@link IdempotencyKeyFilter} learned about a request, and how a stored response is answered. */
public final class IdempotentRequests {

    static final String KEY_ATTRIBUTE = IdempotentRequests.class.getName() + ".key";
    static final String FINGERPRINT_ATTRIBUTE = IdempotentRequests.class.getName() + ".fingerprint";
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private IdempotentRequests() {
    }

    /** The claim this request makes on its Idempotency-Key, scoped to the license once it is known. */
    public static Seats.ClaimSource claims(HttpServletRequest request) {
        Object key = request.getAttribute(KEY_ATTRIBUTE);
        Object fingerprint = request.getAttribute(FINGERPRINT_ATTRIBUTE);
        if (key == null || fingerprint == null) {
            return Seats.ClaimSource.NONE;
        }
        return licenseId -> new IdempotencyClaim(licenseId, (String) key, (String) fingerprint);
    }

    /** The response exactly as stored; a replay says so in {@code Idempotent-Replayed: true}. */
    public static Response respond(AcquireOutcome outcome) {
        StoredResponse stored = outcome.response();
        Response.ResponseBuilder response = Response.status(stored.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(stored.body());
        if (stored.location() != null) {
            response.location(URI.create(stored.location()));
        }
        if (outcome.replayed()) {
            response.header(REPLAYED_HEADER, "true");
        }
        return response.build();
    }
}
