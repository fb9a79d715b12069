package dev.keyright.client;

/**
 * The license has no such activation and never had (404 activation-not-found), e.g. after the license key was
 * replaced by another license's. Treated like an ended activation: the stored certificate is deleted.
 */
public class ActivationNotFoundException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public ActivationNotFoundException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
