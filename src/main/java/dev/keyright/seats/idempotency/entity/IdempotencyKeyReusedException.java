package dev.keyright.seats.idempotency.entity;

import dev.keyright.seats.problems.BusinessException;

/** The key was used before with a different request. */
public class IdempotencyKeyReusedException extends BusinessException {

    public IdempotencyKeyReusedException() {
        super("idempotency-key-reused", "This Idempotency-Key was already used with a different request. Use a new key for a new request.");
    }
}
