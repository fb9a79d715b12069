package dev.keyright.seats.problems;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;

/** Builds RFC 9457 problem documents: {@code type}, {@code title}, {@code status}, {@code detail} and extensions. */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final String TYPE_BASE = "https://keyright.dev/problems/";

    private Problems() {
    }

    public static String document(int status, String slug, String title, String detail, Map<String, Object> members) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("type", TYPE_BASE + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail);
        members.forEach((name, value) -> json.add(name, toJson(value)));
        return json.build().toString();
    }

    public static String document(BusinessException e) {
        return document(e.status(), e.type(), e.title(), e.detail(), e.members());
    }

    private static jakarta.json.JsonValue toJson(Object value) {
        if (value instanceof Number n) {
            return JSON.createValue(n.longValue());
        }
        if (value instanceof List<?> list) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            for (Object item : list) {
                if (item instanceof FieldError error) {
                    array.add(JSON.createObjectBuilder().add("field", error.field()).add("message", error.message()));
                } else {
                    array.add(String.valueOf(item));
                }
            }
            return array.build();
        }
        return JSON.createValue(String.valueOf(value));
    }

    /** The problem for an HTTP status the container or JAX-RS produced itself. */
    public static String forStatus(int status) {
        return switch (status) {
            case 400 -> document(400, "invalid-request", "Invalid request", "The request could not be understood.", Map.of());
            case 401 -> document(401, "unauthorized", "Unauthorized", "Authentication is required.", Map.of());
            case 403 -> document(403, "forbidden", "Forbidden", "You are not allowed to do this.", Map.of());
            case 404 -> document(404, "not-found", "Not found", "There is nothing at this address.", Map.of());
            case 405 -> document(405, "method-not-allowed", "Method not allowed", "This address does not accept that method.", Map.of());
            case 406 -> document(406, "not-acceptable", "Not acceptable", "This resource answers in JSON only.", Map.of());
            case 408 -> document(408, "request-timeout", "Request timeout", "The request body did not arrive in time.", Map.of());
            case 413 -> document(413, "payload-too-large", "Payload too large", "The request body is larger than allowed.", Map.of());
            case 415 -> document(415, "unsupported-media-type", "Unsupported media type", "Send application/json in UTF-8.", Map.of());
            case 429 -> document(429, "too-many-requests", "Too many requests", "Slow down and retry later.", Map.of());
            case 503 -> document(503, "service-unavailable", "Service unavailable", "Try again shortly.", Map.of());
            default -> status >= 500
                    ? document(500, "server-error", "Server error", "The server could not complete the request.", Map.of())
                    : document(status, "client-error", "Client error", "The request was not accepted.", Map.of());
        };
    }
}
