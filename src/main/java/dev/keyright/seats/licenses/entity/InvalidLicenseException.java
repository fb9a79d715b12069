package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;

/** A missing, unknown or mismatched license key: the same answer whichever it was. */
public class InvalidLicenseException extends BusinessException {

    public InvalidLicenseException() {
        super("invalid-license", "The license key is missing, unknown or not for this product.");
    }
}
