package dev.keyright.client;

import java.util.List;

/** The server refused the request's content (400 invalid-request), with the offending fields. */
public class InvalidRequestException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    /** One refused field, as in the problem's {@code errors} member. */
    public record FieldError(String field, String message) implements java.io.Serializable {
    }

    private final List<FieldError> errors;

    public InvalidRequestException(String message, int status, String problemType, List<FieldError> errors) {
        super(message, status, problemType, null);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
