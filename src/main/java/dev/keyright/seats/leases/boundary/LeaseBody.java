package dev.keyright.seats.leases.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The acquire/renew response body of the wire contract. */
final class LeaseBody {

    private LeaseBody() {
    }

    static String json(Lease lease, String token, License license, long seatsInUse) {
        return JSON.createObjectBuilder()
                .add("leaseId", lease.id())
                .add("token", token)
                .add("expiresAt", timestamp(lease.expiresAt()))
                .add("ttlSeconds", license.ttlSeconds())
                .add("renewAfterSeconds", license.policy().renewAfterSeconds())
                .add("seatsInUse", seatsInUse)
                .add("maxSeats", license.seats())
                .build().toString();
    }

    /** RFC 3339, UTC, whole seconds: {@code 2026-11-13T14:32:05Z}. */
    static String timestamp(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
