package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;

/** Supplies the Idempotency-Key claim of a request, if it carries one, once its license is known. */
@FunctionalInterface
public interface IdempotencyClaims {

    /** The claim scoped to this license, or null when the request carries no key. */
    IdempotencyClaim claimFor(String licenseId);

    IdempotencyClaims NONE = licenseId -> null;
}
