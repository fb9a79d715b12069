package dev.keyright.client;

import java.util.Optional;

/**
 * The call does not fit the license's model (409 wrong-license-model): a floating-seat call (acquire, renew,
 * borrow, pool) on a node-locked license, or an activation on a floating one. The model is fixed when the
 * license is issued, so the app must use the other half of the SDK, not retry.
 */
public class WrongLicenseModelException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final String model;

    public WrongLicenseModelException(String message, int status, String problemType, String model) {
        super(message, status, problemType, null);
        this.model = model;
    }

    /** The license's own model, {@code floating} or {@code node-locked}, when the server said it. */
    public Optional<String> model() {
        return Optional.ofNullable(model);
    }
}
