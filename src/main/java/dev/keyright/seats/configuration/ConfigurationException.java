package dev.keyright.seats.configuration;

/** A setting the server cannot start with; the message names it and says what is allowed. */
public class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}
