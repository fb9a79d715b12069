package dev.keyright.client;

/** Nothing to check: no seat is borrowed, or the product is not activated, on this machine (in this store). */
public class OfflineLicenseNotFoundException extends OfflineLicenseException {

    private static final long serialVersionUID = 1L;

    public OfflineLicenseNotFoundException(String message) {
        super(message, null);
    }
}
