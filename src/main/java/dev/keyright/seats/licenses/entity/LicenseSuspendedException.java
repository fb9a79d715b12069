package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;

/** The license exists but is suspended or past its end date. */
public class LicenseSuspendedException extends BusinessException {

    public LicenseSuspendedException() {
        super("license-suspended", "This license is suspended or past its end date.");
    }
}
