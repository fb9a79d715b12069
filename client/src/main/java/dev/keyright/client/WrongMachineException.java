package dev.keyright.client;

/**
 * The activation certificate is signed for another machine's fingerprint ({@code sub}): the store was copied
 * from another machine, or this machine's identity changed. Activate this machine to use the license here.
 */
public class WrongMachineException extends OfflineLicenseException {

    private static final long serialVersionUID = 1L;

    public WrongMachineException(String message) {
        super(message, null);
    }
}
