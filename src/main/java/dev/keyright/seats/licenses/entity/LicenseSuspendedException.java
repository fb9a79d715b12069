package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;

/** 403: the license exists but is suspended or past its end date. */
public class LicenseSuspendedException extends BusinessException {

    public LicenseSuspendedException() {
        super(403, "license-suspended", "License suspended", "This license is suspended or past its end date.");
    }
}
