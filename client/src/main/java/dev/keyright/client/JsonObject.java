package dev.keyright.client;

import java.time.Instant;
import org.jose4j.json.JsonUtil;
import org.jose4j.lang.JoseException;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed, strict access to the members of a parsed JSON object. */
final class JsonObject {

    private final Map<String, Object> members;

    private JsonObject(Map<String, Object> members) {
        this.members = members;
    }

    /** Parses one JSON object with jose4j's parser, which refuses duplicate members and trailing text. */
    static JsonObject parse(String text) {
        try {
            return new JsonObject(JsonUtil.parseJson(text));
        } catch (JoseException | RuntimeException e) {
            throw new IllegalArgumentException("JSON: not one well-formed object: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static JsonObject of(Object value) {
        if (!(value instanceof Map)) throw new IllegalArgumentException("expected a JSON object");
        return new JsonObject((Map<String, Object>) value);
    }

    Optional<String> findString(String name) {
        Object value = members.get(name);
        if (value == null) return Optional.empty();
        if (!(value instanceof String)) throw new IllegalArgumentException("\"" + name + "\" is not a string");
        return Optional.of((String) value);
    }

    String getString(String name) {
        return findString(name).orElseThrow(() -> missing(name));
    }

    Optional<Long> findLong(String name) {
        Object value = members.get(name);
        if (value == null) return Optional.empty();
        if (!(value instanceof Long)) throw new IllegalArgumentException("\"" + name + "\" is not an integer");
        return Optional.of((Long) value);
    }

    long getLong(String name) {
        return findLong(name).orElseThrow(() -> missing(name));
    }

    int getInt(String name) {
        return Math.toIntExact(getLong(name));
    }

    Optional<Instant> findInstant(String name) {
        try {
            return findString(name).map(Instant::parse);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"" + name + "\" is not an RFC 3339 UTC timestamp");
        }
    }

    Instant getInstant(String name) {
        return findInstant(name).orElseThrow(() -> missing(name));
    }

    Optional<JsonObject> findObject(String name) {
        Object value = members.get(name);
        if (value == null) return Optional.empty();
        if (!(value instanceof Map)) throw new IllegalArgumentException("\"" + name + "\" is not an object");
        return Optional.of(of(value));
    }

    /** This object written back as JSON text. */
    String toJson() {
        return JsonUtil.toJson(members);
    }

    List<?> findList(String name) {
        Object value = members.get(name);
        if (value == null) return List.of();
        if (!(value instanceof List)) throw new IllegalArgumentException("\"" + name + "\" is not an array");
        return (List<?>) value;
    }

    private static IllegalArgumentException missing(String name) {
        return new IllegalArgumentException("missing \"" + name + "\"");
    }
}
