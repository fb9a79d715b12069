package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import jakarta.servlet.http.HttpServletRequest;

/** What {@link IdempotencyKeyFilter} learned about a request, handed to the checkout as its claims. */
public final class IdempotentRequests {

    static final String KEY_ATTRIBUTE = IdempotentRequests.class.getName() + ".key";
    static final String FINGERPRINT_ATTRIBUTE = IdempotentRequests.class.getName() + ".fingerprint";
    /** The header a replayed answer carries. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private IdempotentRequests() {
    }

    /** The claim this request makes on its Idempotency-Key, scoped to the license once it is known. */
    public static IdempotencyClaims claims(HttpServletRequest request) {
        Object key = request.getAttribute(KEY_ATTRIBUTE);
        Object fingerprint = request.getAttribute(FINGERPRINT_ATTRIBUTE);
        if (key == null || fingerprint == null) {
            return IdempotencyClaims.NONE;
        }
        return licenseId -> new IdempotencyClaim(licenseId, (String) key, (String) fingerprint);
    }
}
