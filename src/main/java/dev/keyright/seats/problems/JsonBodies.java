package dev.keyright.seats.problems;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Strict reading of JSON request bodies: one object, no duplicate members, bounded nesting, and
 * field readers that say in words what was wrong. Nothing here leaks parser internals to a client.
 */
public final class JsonBodies {

    public static final int MAX_DEPTH = 8;

    private JsonBodies() {
    }

    public static JsonObject parseObject(String body) {
        if (body == null || body.isBlank()) {
            throw new InvalidRequestException("body", "a JSON object is required");
        }
        checkShape(body);
        try {
            return JSON.createReader(new StringReader(body)).readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new InvalidRequestException("body", "is not a valid JSON object");
        }
    }

    private static void checkShape(String body) {
        Deque<Set<String>> objects = new ArrayDeque<>();
        int depth = 0;
        try (JsonParser parser = JSON.createParser(new StringReader(body))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                throw new InvalidRequestException("body", "must be a JSON object");
            }
            objects.push(new HashSet<>());
            depth = 1;
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > MAX_DEPTH) {
                            throw new InvalidRequestException("body", "is nested deeper than " + MAX_DEPTH + " levels");
                        }
                        objects.push(event == JsonParser.Event.START_OBJECT ? new HashSet<>() : Set.of());
                    }
                    case END_OBJECT, END_ARRAY -> {
                        depth--;
                        objects.pop();
                    }
                    case KEY_NAME -> {
                        if (!objects.peek().add(parser.getString())) {
                            throw new InvalidRequestException(printable(parser.getString()), "appears more than once");
                        }
                    }
                    default -> { }
                }
            }
        } catch (JsonParsingException e) {
            throw new InvalidRequestException("body", "is not valid JSON");
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            throw new InvalidRequestException("body", "is not valid JSON");
        }
    }

    /** Rejects members not in {@code allowed}. */
    public static void onlyFields(JsonObject object, String path, Set<String> allowed, List<FieldError> errors) {
        for (String name : object.keySet()) {
            if (!allowed.contains(name)) {
                errors.add(new FieldError(path + printable(name), "is not a known field"));
            }
        }
    }

    /** A required or optional string field, checked against a length range and pattern. */
    public static Optional<String> string(JsonObject object, String name, String path, boolean required,
                                          int maxLength, Pattern pattern, String patternHint, List<FieldError> errors) {
        JsonValue value = object.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            if (required) {
                errors.add(new FieldError(path + name, "is required"));
            }
            return Optional.empty();
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            errors.add(new FieldError(path + name, "must be a string"));
            return Optional.empty();
        }
        String text = object.getString(name);
        if (text.isEmpty() || text.length() > maxLength) {
            errors.add(new FieldError(path + name, "must be 1 to " + maxLength + " characters"));
            return Optional.empty();
        }
        if (pattern != null && !pattern.matcher(text).matches()) {
            errors.add(new FieldError(path + name, patternHint));
            return Optional.empty();
        }
        if (pattern == null && text.codePoints().anyMatch(Character::isISOControl)) {
            errors.add(new FieldError(path + name, "must not contain control characters"));
            return Optional.empty();
        }
        return Optional.of(text);
    }

    /** An optional whole-number field within [min, max]. */
    public static Optional<Integer> integer(JsonObject object, String name, int min, int max, List<FieldError> errors) {
        JsonValue value = object.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return Optional.empty();
        }
        if (value.getValueType() != JsonValue.ValueType.NUMBER) {
            errors.add(new FieldError(name, "must be a whole number"));
            return Optional.empty();
        }
        jakarta.json.JsonNumber number = object.getJsonNumber(name);
        if (!number.isIntegral() || number.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(min)) < 0
                || number.bigDecimalValue().compareTo(java.math.BigDecimal.valueOf(max)) > 0) {
            errors.add(new FieldError(name, "must be a whole number from " + min + " to " + max));
            return Optional.empty();
        }
        return Optional.of(number.intValue());
    }

    /** Field names echoed back are cut short and stripped of control characters. */
    static String printable(String name) {
        String clean = name.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return clean.length() > 64 ? clean.substring(0, 64) + "..." : clean;
    }
}
