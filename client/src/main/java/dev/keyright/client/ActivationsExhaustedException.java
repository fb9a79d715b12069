package dev.keyright.client;

/**
 * Every activation of the node-locked license is taken (409 activations-exhausted). Unlike a full seat pool
 * this does not pass by waiting: an activation holds its slot until a machine is deactivated or an
 * administrator revokes it.
 */
public class ActivationsExhaustedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    private final int activationsInUse;
    private final int maxActivations;

    public ActivationsExhaustedException(String message, int status, String problemType, int activationsInUse,
                                         int maxActivations) {
        super(message, status, problemType, null);
        this.activationsInUse = activationsInUse;
        this.maxActivations = maxActivations;
    }

    /** Live activations of the license, or -1 when the server did not say. */
    public int activationsInUse() {
        return activationsInUse;
    }

    /** The license's activations, or -1 when the server did not say. */
    public int maxActivations() {
        return maxActivations;
    }
}
