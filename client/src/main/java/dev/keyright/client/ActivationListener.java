package dev.keyright.client;

/** Told what an {@link ActivationKeeper} learns, on the keeper's thread. */
@FunctionalInterface
public interface ActivationListener {

    /**
     * The activation ended: deactivated or revoked by an administrator ({@link ActivationEndedException}), unknown
     * to the server ({@link ActivationNotFoundException}), or deactivated from this machine by another process
     * ({@link OfflineLicenseNotFoundException}). The certificate is deleted and the keeper has stopped; the app is
     * no longer licensed on this machine.
     */
    void activationEnded(KeyrightException cause);

    /** A new certificate is stored; the next refresh is due after its {@code revalidateAfter}. Does nothing unless overridden. */
    default void refreshed(Activation activation) {
    }

    /**
     * A refresh failed and will be tried again later; the stored certificate stays valid offline until its
     * {@code exp}. Does nothing unless overridden.
     */
    default void refreshFailed(KeyrightException cause) {
    }
}
