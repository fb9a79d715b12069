package dev.keyright.seats.idempotency.control;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The fingerprint of a request: method, path and canonical body (JSON members sorted, insignificant
 * white space dropped), so that the same request sent with other formatting is the same request.
 */
public final class Fingerprints {

    private Fingerprints() {
    }

    /**
     * @param json the body as the request's one parse read it, or empty when it is not a JSON object (the
     *             request will then be refused, and nothing is stored for it: its raw text stands in)
     */
    public static String of(String method, String path, Optional<JsonObject> json, String raw) {
        String canonical = json.map(object -> sorted(object).toString()).orElse(raw);
        return IdempotencyClaim.sha256(method + " " + path + "\n" + canonical);
    }

    private static JsonValue sorted(JsonValue value) {
        if (value instanceof JsonObject object) {
            JsonObjectBuilder builder = JSON.createObjectBuilder();
            new TreeMap<>(object).forEach((name, member) -> builder.add(name, sorted(member)));
            return builder.build();
        }
        if (value.getValueType() == JsonValue.ValueType.ARRAY) {
            JsonArrayBuilder builder = JSON.createArrayBuilder();
            value.asJsonArray().forEach(item -> builder.add(sorted(item)));
            return builder.build();
        }
        return value;
    }
}
