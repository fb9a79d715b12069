package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;

/** The lease is no longer live (expired past the skew, reaped, released or revoked). Acquire again. */
public class LeaseExpiredException extends BusinessException {

    public LeaseExpiredException() {
        super("lease-expired", "This lease is no longer live: it expired, or was released or revoked. Acquire a new seat.");
    }
}
