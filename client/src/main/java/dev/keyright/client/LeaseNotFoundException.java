package dev.keyright.client;

/** No such lease for this license (404 lease-not-found). */
public class LeaseNotFoundException extends KeyrightException {

    private static final long serialVersionUID = 1L;

    public LeaseNotFoundException(String message, int status, String problemType) {
        super(message, status, problemType, null);
    }
}
