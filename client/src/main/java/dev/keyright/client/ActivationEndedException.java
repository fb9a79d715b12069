package dev.keyright.client;

/**
 * The activation was deactivated or revoked by an administrator (410 activation-ended). The SDK deletes the
 * stored certificate when it meets this: the machine is no longer licensed once it knows.
 */
public class ActivationEndedException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public ActivationEndedException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
