package dev.keyright.seats.leases.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.web.Timestamps;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;

/** The acquire/renew response body of the wire contract. */
final class LeaseBody {

    private LeaseBody() {
    }

    static String json(Lease lease, String token, License license, long seatsInUse) {
        return builder(lease, token, license, seatsInUse).build().toString();
    }

    /** The body of a seat handed to a waiting install: the same members and how long it waited. */
    static String json(Lease lease, String token, License license, long seatsInUse, long waitedMillis) {
        return builder(lease, token, license, seatsInUse).add("waitedMillis", waitedMillis).build().toString();
    }

    /**
     * A lease as {@code GET /v1/seats/{leaseId}} shows it to its holder: what the server signed last, without a
     * new token (only a renewal signs one).
     */
    static String view(Lease lease, License license) {
        jakarta.json.JsonObjectBuilder body = JSON.createObjectBuilder()
                .add("leaseId", lease.id())
                .add("product", license.product())
                .add("acquiredAt", Timestamps.format(lease.acquiredAt()))
                .add("expiresAt", Timestamps.format(lease.expiresAt()))
                .add("ttlSeconds", license.ttlSeconds())
                .add("renewAfterSeconds", license.policy().renewAfterSeconds());
        if (lease.holder().user() != null) {
            body.add("user", lease.holder().user());
        }
        if (lease.holder().host() != null) {
            body.add("host", lease.holder().host());
        }
        if (lease.overdraft()) {
            body.add("overdraft", true);
        }
        lease.releasedAt().ifPresent(released -> body.add("releasedAt", Timestamps.format(released))
                .add("lingeringUntil", Timestamps.format(lease.expiresAt())));
        lease.borrowedUntil().ifPresent(until -> body.add("borrowedUntil", Timestamps.format(until)));
        return body.build().toString();
    }

    private static jakarta.json.JsonObjectBuilder builder(Lease lease, String token, License license, long seatsInUse) {
        jakarta.json.JsonObjectBuilder body = JSON.createObjectBuilder()
                .add("leaseId", lease.id())
                .add("token", token)
                .add("expiresAt", Timestamps.format(lease.expiresAt()))
                .add("ttlSeconds", license.ttlSeconds())
                .add("renewAfterSeconds", license.policy().renewAfterSeconds())
                .add("seatsInUse", seatsInUse)
                .add("maxSeats", license.seats());
        if (lease.overdraft()) {
            body.add("overdraft", true);
        }
        lease.borrowedUntil().ifPresent(until -> body.add("borrowedUntil", Timestamps.format(until)));
        return body;
    }
}
