package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The body of {@code POST /v1/admin/licenses}. */
public record LicenseRequest(String product, int seats, Optional<Integer> ttlSeconds, Optional<Integer> skewSeconds,
                             Optional<String> customer, Optional<Instant> notAfter) {

    /** Four-digit years only (RFC 3339): {@code Instant.parse} alone takes years up to a billion. */
    private static final Pattern RFC_3339_UTC = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z");
    private static final Set<String> FIELDS = Set.of("product", "seats", "ttlSeconds", "skewSeconds", "customer", "notAfter");

    public static LicenseRequest parse(String body) {
        JsonObject json = JsonBodies.parseObject(body);
        List<FieldError> errors = new ArrayList<>();
        JsonBodies.onlyFields(json, "", FIELDS, errors);
        Optional<String> product = JsonBodies.string(json, "product", "", true, License.PRODUCT_MAX_LENGTH,
                License.PRODUCT, License.PRODUCT_RULE, errors);
        Optional<Integer> seats = JsonBodies.integer(json, "seats", 1, Policy.MAX_SEATS, errors);
        if (seats.isEmpty() && errors.stream().noneMatch(e -> e.field().equals("seats"))) {
            errors.add(new FieldError("seats", "is required"));
        }
        Optional<Integer> ttl = JsonBodies.wholeNumber(json, "ttlSeconds", errors);
        Optional<Integer> skew = JsonBodies.wholeNumber(json, "skewSeconds", errors);
        Optional<String> customer = JsonBodies.string(json, "customer", "", false, 256, null, null, errors);
        Optional<Instant> notAfter = JsonBodies.string(json, "notAfter", "", false, 40, null, null, errors)
                .flatMap(text -> timestamp(text, errors));
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new LicenseRequest(product.orElseThrow(), seats.orElseThrow(), ttl, skew, customer, notAfter);
    }

    private static Optional<Instant> timestamp(String text, List<FieldError> errors) {
        try {
            if (!RFC_3339_UTC.matcher(text).matches()) {
                throw new DateTimeParseException("not RFC 3339 in UTC", text, 0);
            }
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            errors.add(new FieldError("notAfter", "must be an RFC 3339 timestamp in UTC, e.g. 2027-01-31T00:00:00Z"));
            return Optional.empty();
        }
    }
}
