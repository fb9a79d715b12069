package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;
import java.util.Map;

/** 401: missing, unknown or mismatched license key. The same answer whichever it was. */
public class InvalidLicenseException extends BusinessException {

    public InvalidLicenseException() {
        super(401, "invalid-license", "Invalid license", "The license key is missing, unknown or not for this product.");
    }

    @Override
    public Map<String, String> headers() {
        return Map.of("WWW-Authenticate", "License realm=\"keyright\"");
    }
}
