package dev.keyright.client;

/**
 * This machine may not use the license offline now: the offline check of a borrowed seat or an activation
 * certificate refused. No server was asked; the subclasses say why, so an app can tell "borrow again" from
 * "fix the clock" from "someone edited the store".
 */
public class OfflineLicenseException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public OfflineLicenseException(String message, Throwable cause) {
        super(message, cause);
    }
}
