package dev.keyright.seats.activations.entity;

import dev.keyright.seats.problems.BusinessException;
import java.util.Map;

/** Every machine slot of a node-locked license is taken: a machine must be deactivated (or revoked) first. */
public class ActivationsExhaustedException extends BusinessException {

    private final long inUse;
    private final int max;

    public ActivationsExhaustedException(long inUse, int max) {
        super("activations-exhausted", "All " + max + " activations of this license are in use. Deactivate a machine"
                + " that no longer needs it, or ask the vendor for more.");
        this.inUse = inUse;
        this.max = max;
    }

    @Override
    public Map<String, Object> members() {
        return Map.of("activationsInUse", inUse, "maxActivations", max);
    }
}
