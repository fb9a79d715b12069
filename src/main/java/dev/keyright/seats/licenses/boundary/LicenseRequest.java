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
import jakarta.validation.constraints.NotNull;
import java.time.Instant;
import java.util.Optional;

/** A new license: {@code POST /v1/admin/licenses}. TTL and skew are the policy's to judge ({@link Policy}). */
public record LicenseRequest(String product, int seats, Optional<Integer> ttlSeconds, Optional<Integer> skewSeconds,
                             Optional<String> customer, Optional<Instant> notAfter, SharingChange sharing,
                             OfflineUse offline) {

    static final String SEATS_RANGE = "must be a whole number from 1 to " + Policy.MAX_SEATS;
    /** Four-digit years only (RFC 3339): {@code Instant.parse} alone takes years up to a billion. */
    private static final String RFC_3339_UTC = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z";

    /** The body as it arrives, judged by its annotations. */
    public record Body(
            @NotNull(message = "is required")
            @Text(max = License.PRODUCT_MAX_LENGTH, pattern = License.PRODUCT_PATTERN, rule = License.PRODUCT_RULE)
            String product,
            @Min(value = 1, message = SEATS_RANGE) @Max(value = Policy.MAX_SEATS, message = SEATS_RANGE)
            Integer seats,
            Integer ttlSeconds,
            Integer skewSeconds,
            @Text(max = 256) String customer,
            @Text(max = 40, pattern = RFC_3339_UTC, instant = true,
                    rule = "must be an RFC 3339 timestamp in UTC, e.g. 2027-01-31T00:00:00Z")
            String notAfter,
            @Text(max = 16, pattern = "floating|node-locked", rule = "must be \"floating\" or \"node-locked\"")
            String model,
            Integer maxBorrowHours,
            Integer maxActivations,
            Integer offlineDays) {
    }

    public static LicenseRequest parse(String body) {
        return from(JsonBodies.parseObject(body));
    }

    public static LicenseRequest from(JsonObject json) {
        SharingChange.Bound<Body> bound = SharingChange.bind(json, Body.class);
        Body body = bound.body();
        SharingChange sharing = bound.sharing();
        OfflineUse.Model model = body.model() == null ? OfflineUse.Model.FLOATING : OfflineUse.Model.of(body.model());
        OfflineUse offline = new OfflineUse(model, Optional.ofNullable(body.maxBorrowHours()).orElse(0),
                body.maxActivations(), Optional.ofNullable(body.offlineDays()).orElse(OfflineUse.DEFAULT_OFFLINE_DAYS));
        Integer seats = body.seats();
        if (seats == null) {
            if (model == OfflineUse.Model.FLOATING || body.maxActivations() == null) {
                throw new InvalidRequestException("seats", "is required" + (model == OfflineUse.Model.FLOATING ? ""
                        : " (or maxActivations, which a node-locked license's seats then follow)"));
            }
            seats = body.maxActivations(); // a node-locked license has no seats to count; the column says how many machines
        }
        return new LicenseRequest(body.product(), seats, Optional.ofNullable(body.ttlSeconds()),
                Optional.ofNullable(body.skewSeconds()), Optional.ofNullable(body.customer()),
                Optional.ofNullable(body.notAfter()).map(Instant::parse), sharing, offline);
    }
}
