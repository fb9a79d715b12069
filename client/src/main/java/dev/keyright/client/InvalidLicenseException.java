package dev.keyright.client;

/** The license key is missing, unknown or for another product (401 invalid-license). */
public class InvalidLicenseException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public InvalidLicenseException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
