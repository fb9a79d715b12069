package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The body of {@code PATCH /v1/admin/licenses/{id}}: any of seats, ttlSeconds, skewSeconds, status. */
public record LicenseChange(Optional<Integer> seats, Optional<Integer> ttlSeconds, Optional<Integer> skewSeconds,
                            Optional<License.Status> status) {

    private static final Set<String> FIELDS = Set.of("seats", "ttlSeconds", "skewSeconds", "status");
    private static final Pattern STATUS = Pattern.compile("active|suspended");

    public static LicenseChange parse(String body) {
        JsonObject json = JsonBodies.parseObject(body);
        List<FieldError> errors = new ArrayList<>();
        JsonBodies.onlyFields(json, "", FIELDS, errors);
        Optional<Integer> seats = JsonBodies.integer(json, "seats", 1, Policy.MAX_SEATS, errors);
        Optional<Integer> ttl = JsonBodies.wholeNumber(json, "ttlSeconds", errors);
        Optional<Integer> skew = JsonBodies.wholeNumber(json, "skewSeconds", errors);
        Optional<License.Status> status = JsonBodies.string(json, "status", "", false, 16, STATUS,
                "must be \"active\" or \"suspended\"", errors).map(s -> License.Status.valueOf(s.toUpperCase()));
        if (errors.isEmpty() && json.isEmpty()) {
            errors.add(new FieldError("body", "names nothing to change"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new LicenseChange(seats, ttl, skew, status);
    }
}
