package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.entity.Holder;
import java.util.function.Function;

/**
 * An install whose acquire is held on this node, as the checkout sees it: who, the Idempotency-Key claim of its
 * request (a seat handed over stores its answer under it), how that answer is written, and how long it has waited.
 */
public record Waiter(Holder holder, IdempotencyClaim claim, Function<Grant, StoredResponse> answers, long waitedMillis) {
}
