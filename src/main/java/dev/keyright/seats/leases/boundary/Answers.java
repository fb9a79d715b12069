package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.idempotency.entity.StoredResponse;

/**
 * The one mapping from a {@link Grant} to the answer of the wire contract: a new seat is 201 with its
 * {@code Location}, the same install's seat and a renewal are 200, a replay is what was stored. The
 * checkout stores this answer with the lease (one commit), so a replay repeats it byte for byte.
 */
final class Answers {

    private Answers() {
    }

    static StoredResponse of(Grant grant) {
        return switch (grant.kind()) {
            case NEW -> new StoredResponse(201, location(grant.leaseId()), grant.body());
            case RETURNING, RENEWED -> new StoredResponse(200, location(grant.leaseId()), grant.body());
            case REPLAY -> grant.replayed();
            case QUEUED -> throw new IllegalStateException("a queued request is held, not answered");
        };
    }

    static String location(String leaseId) {
        return "/v1/seats/" + leaseId;
    }
}
