package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.OfflineUse;
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
                            Optional<License.Status> status, SharingChange sharing, Optional<Integer> maxBorrowHours,
                            Optional<Integer> maxActivations, Optional<Integer> offlineDays) {

    /** The body as it arrives, judged by its annotations. */
    public record Body(
            @Min(value = 1, message = LicenseRequest.SEATS_RANGE) @Max(value = Policy.MAX_SEATS, message = LicenseRequest.SEATS_RANGE)
            Integer seats,
            Integer ttlSeconds,
            Integer skewSeconds,
            @Text(max = 16, pattern = "active|suspended", rule = "must be \"active\" or \"suspended\"")
            String status,
            String model,
            Integer maxBorrowHours,
            Integer maxActivations,
            Integer offlineDays) {
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
        if (body.model() != null) {
            throw new InvalidRequestException("model", "is fixed when the license is issued: issue a new license for another model");
        }
        return new LicenseChange(Optional.ofNullable(body.seats()), Optional.ofNullable(body.ttlSeconds()),
                Optional.ofNullable(body.skewSeconds()),
                Optional.ofNullable(body.status()).map(s -> License.Status.valueOf(s.toUpperCase())), sharing,
                Optional.ofNullable(body.maxBorrowHours()), Optional.ofNullable(body.maxActivations()),
                Optional.ofNullable(body.offlineDays()));
    }

    /** These changes applied to how the license is used offline; the model stays. */
    public OfflineUse applyTo(OfflineUse current) {
        return new OfflineUse(current.model(), maxBorrowHours.orElse(current.maxBorrowHours()),
                maxActivations.or(current::maxActivations).orElse(null), offlineDays.orElse(current.offlineDays()));
    }
}
