package dev.keyright.seats.web;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.servlet.ServletRequest;
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
    /**
     * Numbers in a request are whole numbers written plainly: no fraction, no exponent ({@code 5e0} and
     * {@code 1E2} alike are refused), at most 18 digits, so no number is ever too large to read.
     */
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,17})");

    private JsonBodies() {
    }

    private static final String PARSED = JsonBodies.class.getName() + ".parsed";

    /**
     * The request's body (from the one body cache, {@link RequestBodies}) as one strict JSON object, parsed
     * once per request however many ask (the Idempotency-Key fingerprint, the key-guessing guard, the
     * resource); a refusal is remembered and thrown to each.
     */
    public static JsonObject of(ServletRequest request) {
        Object parsed = request.getAttribute(PARSED);
        if (parsed == null) {
            try {
                parsed = parseObject(RequestBodies.text(request));
            } catch (InvalidRequestException refused) {
                parsed = refused;
            }
            request.setAttribute(PARSED, parsed);
        }
        if (parsed instanceof InvalidRequestException refused) {
            throw refused;
        }
        return (JsonObject) parsed;
    }

    /** The request's body as one strict JSON object, or empty when it is not one (see {@link #of}). */
    public static Optional<JsonObject> find(ServletRequest request) {
        try {
            return Optional.of(of(request));
        } catch (InvalidRequestException notAnObject) {
            return Optional.empty();
        }
    }

    public static JsonObject parseObject(String body) {
        if (body == null || body.isBlank()) {
            throw new InvalidRequestException("body", "a JSON object is required");
        }
        checkShape(body);
        try {
            return JSON.createReader(new StringReader(body)).readObject();
        } catch (JsonException | IllegalStateException | UnsupportedOperationException e) {
            throw new InvalidRequestException("body", "is not a valid JSON object");
        }
    }

    private static void checkShape(String body) {
        Deque<Set<String>> objects = new ArrayDeque<>();
        int depth = 0;
        String member = "body";
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
                        member = printable(parser.getString());
                        if (!objects.peek().add(parser.getString())) {
                            throw new InvalidRequestException(member, "appears more than once");
                        }
                    }
                    case VALUE_NUMBER -> {
                        if (!WHOLE_NUMBER.matcher(parser.getString()).matches()) {
                            throw new InvalidRequestException(member, "must be a whole number of at most 18 digits");
                        }
                    }
                    default -> { }
                }
            }
        } catch (JsonException | IllegalStateException | UnsupportedOperationException | java.util.NoSuchElementException e) {
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

    /**
     * An optional whole-number field of any int value; its range is the business rule's to judge and to
     * name (a TTL's bounds are the policy's), so a refusal never quotes a range that is not the real one.
     */
    public static Optional<Integer> wholeNumber(JsonObject object, String name, List<FieldError> errors) {
        return integer(object, name, Integer.MIN_VALUE, Integer.MAX_VALUE, "must be a whole number", errors);
    }

    /** An optional whole-number field within [min, max]. */
    public static Optional<Integer> integer(JsonObject object, String name, int min, int max, List<FieldError> errors) {
        return integer(object, name, min, max, "must be a whole number from " + min + " to " + max, errors);
    }

    private static Optional<Integer> integer(JsonObject object, String name, int min, int max, String message,
                                             List<FieldError> errors) {
        JsonValue value = object.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return Optional.empty();
        }
        if (value.getValueType() != JsonValue.ValueType.NUMBER) {
            errors.add(new FieldError(name, "must be a whole number"));
            return Optional.empty();
        }
        jakarta.json.JsonNumber number = object.getJsonNumber(name);
        if (!WHOLE_NUMBER.matcher(number.toString()).matches() || number.longValue() < min || number.longValue() > max) {
            errors.add(new FieldError(name, message));
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
