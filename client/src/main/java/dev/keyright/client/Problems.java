package dev.keyright.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Turns a refused response (RFC 9457 problem+json, or any non-2xx) into the typed exception. */
final class Problems {

    static final String TYPE_PREFIX = "https://keyright.dev/problems/";

    private Problems() {
    }

    static KeyrightException toException(Transport.Response response) {
        int status = response.status();
        Duration retryAfter = readRetryAfter(response).orElse(null);
        Optional<JsonObject> problem = readProblem(response);
        String type = problem.flatMap(p -> p.findString("type")).orElse(null);
        String detail = problem.flatMap(p -> p.findString("detail").or(() -> p.findString("title")))
                .orElse("HTTP " + status);
        String slug = type != null && type.startsWith(TYPE_PREFIX) ? type.substring(TYPE_PREFIX.length()) : "";
        switch (slug) {
            case "seats-exhausted":
                int position = member(problem, "queuePosition");
                return new SeatsExhaustedException(detail, member(problem, "seatsInUse"),
                        member(problem, "maxSeats"), retryAfter,
                        position > 0 ? OptionalInt.of(position) : OptionalInt.empty());
            case "lease-expired": return new LeaseExpiredException(detail, status, type);
            case "lease-not-found": return new LeaseNotFoundException(detail, status, type);
            case "invalid-license": return new InvalidLicenseException(detail, status, type);
            case "license-suspended": return new LicenseSuspendedException(detail, status, type);
            case "install-blocked":
                return new InstallBlockedException(detail, status, type, instant(problem, "blockedUntil"), retryAfter);
            case "invalid-request": return new InvalidRequestException(detail, status, type, fieldErrors(problem));
            case "borrowing-not-allowed": return new BorrowingNotAllowedException(detail, status, type);
            case "wrong-license-model":
                return new WrongLicenseModelException(detail, status, type, string(problem, "model"));
            case "activations-exhausted":
                return new ActivationsExhaustedException(detail, status, type, member(problem, "activationsInUse"),
                        member(problem, "maxActivations"));
            case "activation-ended": return new ActivationEndedException(detail, status, type);
            case "activation-not-found": return new ActivationNotFoundException(detail, status, type);
            case "service-unavailable":
            case "request-in-progress":
                return new TransientException(detail, status, type, retryAfter, null);
            default:
                if (status >= 500 || status == 429 || status == 408) {
                    return new TransientException(detail, status, type, retryAfter, null);
                }
                return new KeyrightException(detail, status, type, null);
        }
    }

    /** Delta-seconds only: an HTTP-date would need the wall clock, which the client does not trust. */
    static Optional<Duration> readRetryAfter(Transport.Response response) {
        return response.header("Retry-After").map(String::trim).filter(v -> v.matches("\\d{1,9}"))
                .map(v -> Duration.ofSeconds(Long.parseLong(v)));
    }

    private static Optional<JsonObject> readProblem(Transport.Response response) {
        try {
            return Optional.of(JsonObject.parse(response.body()));
        } catch (IllegalArgumentException notJson) {
            return Optional.empty();
        }
    }

    private static java.time.Instant instant(Optional<JsonObject> problem, String name) {
        try {
            return problem.flatMap(p -> p.findString(name)).map(java.time.Instant::parse).orElse(null);
        } catch (RuntimeException malformed) {
            return null;
        }
    }

    private static String string(Optional<JsonObject> problem, String name) {
        try {
            return problem.flatMap(p -> p.findString(name)).orElse(null);
        } catch (RuntimeException malformed) {
            return null;
        }
    }

    private static int member(Optional<JsonObject> problem, String name) {
        try {
            return problem.flatMap(p -> p.findLong(name)).map(Math::toIntExact).orElse(-1);
        } catch (RuntimeException malformed) {
            return -1;
        }
    }

    private static List<InvalidRequestException.FieldError> fieldErrors(Optional<JsonObject> problem) {
        List<InvalidRequestException.FieldError> errors = new ArrayList<>();
        try {
            for (Object error : problem.map(p -> p.findList("errors")).orElse(List.of())) {
                JsonObject e = JsonObject.of(error);
                errors.add(new InvalidRequestException.FieldError(
                        e.findString("field").orElse(""), e.findString("message").orElse("")));
            }
        } catch (IllegalArgumentException malformed) {
            // keep what was readable: the detail still says what was wrong
        }
        return errors;
    }
}
