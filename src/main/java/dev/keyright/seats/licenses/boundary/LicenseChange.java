package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import dev.keyright.seats.web.Text;
import jakarta.json.JsonObject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.Optional;

/**
 * A change to a license, {@code PATCH /v1/admin/licenses/{id}}: any of seats, ttlSeconds, skewSeconds, status and
 * the seat policies ({@link SharingChange}). Held seats are never taken back by a change; new checkouts follow it.
 */
public record LicenseChange(Optional<Integer> seats, Optional<Integer> ttlSeconds, Optional<Integer> skewSeconds,
                            Optional<License.Status> status, SharingChange sharing) {

    /** The body as it arrives, judged by its annotations. */
    public record Body(
            @Min(value = 1, message = LicenseRequest.SEATS_RANGE) @Max(value = Policy.MAX_SEATS, message = LicenseRequest.SEATS_RANGE)
            Integer seats,
            Integer ttlSeconds,
            Integer skewSeconds,
            @Text(max = 16, pattern = "active|suspended", rule = "must be \"active\" or \"suspended\"")
            String status) {
    }

    public static LicenseChange parse(String body) {
        return from(JsonBodies.parseObject(body));
    }

    public static LicenseChange from(JsonObject json) {
        SharingChange.Bound<Body> bound = SharingChange.bind(json, Body.class);
        Body body = bound.body();
        SharingChange sharing = bound.sharing();
        if (json.isEmpty()) {
            throw new InvalidRequestException("body", "names nothing to change");
        }
        return new LicenseChange(Optional.ofNullable(body.seats()), Optional.ofNullable(body.ttlSeconds()),
                Optional.ofNullable(body.skewSeconds()),
                Optional.ofNullable(body.status()).map(s -> License.Status.valueOf(s.toUpperCase())), sharing);
    }
}
