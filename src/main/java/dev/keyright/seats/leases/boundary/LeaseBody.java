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

    private static jakarta.json.JsonObjectBuilder builder(Lease lease, String token, License license, long seatsInUse) {
        jakarta.json.JsonObjectBuilder body = JSON.createObjectBuilder();
        if (lease.overdraft()) {
            body.add("overdraft", true);
        }
        return body
                .add("leaseId", lease.id())
                .add("token", token)
                .add("expiresAt", Timestamps.format(lease.expiresAt()))
                .add("ttlSeconds", license.ttlSeconds())
                .add("renewAfterSeconds", license.policy().renewAfterSeconds())
                .add("seatsInUse", seatsInUse)
                .add("maxSeats", license.seats());
    }
}
