package dev.keyright.seats.problems;

import java.util.List;
import java.util.Map;

/** The request is malformed; {@code errors} says which fields and why. */
public class InvalidRequestException extends BusinessException {

    private final List<FieldError> errors;

    public InvalidRequestException(List<FieldError> errors) {
        super("invalid-request", summary(errors));
        this.errors = List.copyOf(errors);
    }

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    private static String summary(List<FieldError> errors) {
        return errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are invalid";
    }

    public List<FieldError> errors() {
        return errors;
    }

    @Override
    public Map<String, Object> members() {
        return Map.of("errors", errors);
    }
}
