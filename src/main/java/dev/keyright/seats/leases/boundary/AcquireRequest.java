package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The body of {@code POST /v1/seats/acquire}, validated field by field. */
public record AcquireRequest(String product, String licenseKey, Holder holder) {

    public static final Pattern CLIENT_INSTANCE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final Pattern LICENSE_KEY = Pattern.compile("[\\x21-\\x7E]{1,128}");
    private static final Set<String> FIELDS = Set.of("product", "licenseKey", "clientInstanceId", "metadata");
    private static final Set<String> METADATA = Set.of("user", "host");

    public static AcquireRequest parse(String body) {
        return from(JsonBodies.parseObject(body));
    }

    /** The request read from its JSON object, field by field; every problem named in one refusal. */
    public static AcquireRequest from(JsonObject json) {
        List<FieldError> errors = new ArrayList<>();
        JsonBodies.onlyFields(json, "", FIELDS, errors);
        Optional<String> product = JsonBodies.string(json, "product", "", true, License.PRODUCT_MAX_LENGTH,
                License.PRODUCT, License.PRODUCT_RULE, errors);
        Optional<String> key = JsonBodies.string(json, "licenseKey", "", true, 128, LICENSE_KEY,
                "must be 1 to 128 printable characters", errors);
        Optional<String> client = JsonBodies.string(json, "clientInstanceId", "", true, 128, CLIENT_INSTANCE_ID,
                "must be 1 to 128 characters of letters, digits, '.', '_', ':' or '-'", errors);
        Optional<String> user = Optional.empty();
        Optional<String> host = Optional.empty();
        JsonValue metadata = json.get("metadata");
        if (metadata != null && metadata.getValueType() == JsonValue.ValueType.OBJECT) {
            JsonObject fields = metadata.asJsonObject();
            JsonBodies.onlyFields(fields, "metadata.", METADATA, errors);
            user = JsonBodies.string(fields, "user", "metadata.", false, 256, null, null, errors);
            host = JsonBodies.string(fields, "host", "metadata.", false, 256, null, null, errors);
        } else if (metadata != null && metadata.getValueType() != JsonValue.ValueType.NULL) {
            errors.add(new FieldError("metadata", "must be an object with optional 'user' and 'host'"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new AcquireRequest(product.orElseThrow(), key.orElseThrow(),
                new Holder(client.orElseThrow(), user.orElse(null), host.orElse(null)));
    }
}
