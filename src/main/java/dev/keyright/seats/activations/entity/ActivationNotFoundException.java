package dev.keyright.seats.activations.entity;

import dev.keyright.seats.problems.BusinessException;

/** No activation of that id for this license (one of another license gets exactly this answer too). */
public class ActivationNotFoundException extends BusinessException {

    public ActivationNotFoundException() {
        super("activation-not-found", "No activation with that id for this license.");
    }
}
