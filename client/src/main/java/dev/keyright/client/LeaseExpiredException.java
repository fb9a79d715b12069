package dev.keyright.client;

/** The lease is no longer live on the server (410 lease-expired): acquire a new seat. */
public class LeaseExpiredException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public LeaseExpiredException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
