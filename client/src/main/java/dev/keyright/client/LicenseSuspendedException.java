package dev.keyright.client;

/** The license exists but is suspended or past its end date (403 license-suspended). */
public class LicenseSuspendedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public LicenseSuspendedException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
