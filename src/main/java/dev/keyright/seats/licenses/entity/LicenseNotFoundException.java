package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;

/** No license with that id. */
public class LicenseNotFoundException extends BusinessException {

    public LicenseNotFoundException() {
        super("license-not-found", "No license with that id.");
    }
}
