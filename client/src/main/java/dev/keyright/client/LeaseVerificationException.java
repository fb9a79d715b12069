package dev.keyright.client;

/**
 * A lease token failed verification (signature, algorithm, type, issuer, audience, lease id or
 * expiry claim). The SDK treats the answer as no lease and releases the seat best-effort.
 */
public class LeaseVerificationException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public LeaseVerificationException(String message, Throwable cause) {
        super(message, cause);
    }
}
