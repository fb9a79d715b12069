package dev.keyright.client;

/**
 * A lease token failed verification (signature, algorithm, type, issuer, audience, lease id or
 * expiry claim). The SDK treats the answer as no lease and releases the seat best-effort. Also what a
 * borrowed seat's token or an activation certificate that fails verification on arrival is: the answer is
 * not kept (a borrowed seat is released; an activation's slot stays this machine's, see
 * {@link KeyrightClient#activate(String)}).
 */
public class LeaseVerificationException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public LeaseVerificationException(String message, Throwable cause) {
        super(message, cause);
    }
}
