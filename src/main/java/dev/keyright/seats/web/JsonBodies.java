package dev.keyright.seats.web;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import jakarta.servlet.ServletRequest;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
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

    /** Field names echoed back are cut short and stripped of control characters. */
    static String printable(String name) {
        String clean = name.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return clean.length() > 64 ? clean.substring(0, 64) + "..." : clean;
    }
}
