package dev.keyright.seats.idempotency.control;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.TreeMap;

/**
 * The fingerprint of a request: method, path and canonical body (JSON members sorted, insignificant
 * white space dropped), so that the same request sent with other formatting is the same request.
 */
public final class Fingerprints {

    private Fingerprints() {
    }

    public static String of(String method, String path, String body) {
        return IdempotencyClaim.sha256(method + " " + path + "\n" + canonical(body));
    }

    static String canonical(String body) {
        try {
            return sorted(JSON.createReader(new StringReader(body)).readValue()).toString();
        } catch (JsonException | IllegalStateException | UnsupportedOperationException e) {
            return body; // not JSON: the request will be refused, and nothing is stored for it
        }
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
