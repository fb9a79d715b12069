package dev.keyright.client;

import java.util.Optional;

/**
 * Base of every refusal or failure the SDK reports. Unchecked, like the JDK's own
 * {@code UncheckedIOException}: callers catch the subclasses they can act on
 * ({@link SeatsExhaustedException}, {@link TransientException}, ...).
 */
public class KeyrightException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String problemType;

    public KeyrightException(String message) {
        this(message, 0, null, null);
    }

    public KeyrightException(String message, Throwable cause) {
        this(message, 0, null, cause);
    }

    /**
     * @param status      the HTTP status, or 0 when there was no response
     * @param problemType the problem+json {@code type} URI, or null
     */
    public KeyrightException(String message, int status, String problemType, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.problemType = problemType;
    }

    /** The HTTP status of the refusal, or 0 when no response was received. */
    public int status() {
        return status;
    }

    /** The problem+json {@code type}, e.g. {@code https://keyright.dev/problems/lease-expired}. */
    public Optional<String> problemType() {
        return Optional.ofNullable(problemType);
    }
}
