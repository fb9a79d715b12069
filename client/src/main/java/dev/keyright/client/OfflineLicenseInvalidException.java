package dev.keyright.client;

/**
 * The offline store does not verify: its token or certificate fails the signature with the stored keys (or the
 * embedded one), has the wrong type, product or flags, disagrees with the fields beside it, or the file is not
 * readable. A store edited by hand is refused, never repaired.
 */
public class OfflineLicenseInvalidException extends OfflineLicenseException {

    private static final long serialVersionUID = 1L;

    public OfflineLicenseInvalidException(String message, Throwable cause) {
        super(message, cause);
    }
}
