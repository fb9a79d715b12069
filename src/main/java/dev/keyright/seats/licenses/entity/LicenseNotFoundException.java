package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;

/** 404 on the admin API: no license with that id. */
public class LicenseNotFoundException extends BusinessException {

    public LicenseNotFoundException() {
        super(404, "license-not-found", "License not found", "No license with that id.");
    }
}
