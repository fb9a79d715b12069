package dev.keyright.seats.activations.entity;

import dev.keyright.seats.problems.BusinessException;

/** The activation was deactivated or revoked: its slot is free; the machine must activate again. */
public class ActivationEndedException extends BusinessException {

    public ActivationEndedException() {
        super("activation-ended", "This activation was deactivated or revoked; activate the machine again.");
    }
}
