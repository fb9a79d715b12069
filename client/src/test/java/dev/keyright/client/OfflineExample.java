package dev.keyright.client;

import dev.keyright.client.Activation;
import dev.keyright.client.ActivationKeeper;
import dev.keyright.client.ClockRolledBackException;
import dev.keyright.client.KeyrightClient;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.OfflineLicenseException;
import dev.keyright.client.OfflineLicenseExpiredException;
import dev.keyright.client.OfflineLicenseNotFoundException;

/** Runs "acme-cad" on a node-locked license: activated once, checked offline at each start, kept fresh online. */
public final class OfflineExample {

    public static void main(String[] args) {
        KeyrightClient keyright = KeyrightClient.builder()
                .server("https://licensing.example.com")
                .product("acme-cad")
                .licenseKey(System.getenv("ACME_LICENSE_KEY"))
                .issuer("https://licensing.example.com")
                .build();

        Activation activation;
        try {
            activation = keyright.checkActivation();          // no network: the certificate kept on this machine
        } catch (OfflineLicenseNotFoundException notYet) {
            activation = online(keyright::activate);            // the first run: this machine's fingerprint
        } catch (OfflineLicenseExpiredException tooLongOffline) {
            activation = online(keyright::refreshActivation);   // offline past offlineDays: reach the server once
        } catch (ClockRolledBackException clock) {
            System.err.println("Set this machine's clock right: " + clock.getMessage());
            return;
        } catch (OfflineLicenseException refused) {           // edited, or another machine's certificate
            System.err.println("Not licensed on this machine: " + refused.getMessage());
            return;
        }
        if (activation == null) return;

        // Refreshes the certificate at revalidateAfter while the app runs; told when an administrator revokes it.
        try (ActivationKeeper keeper = keyright.keepActivated(activation, ended ->
                System.err.println("This machine's activation ended: " + ended.getMessage()))) {
            runTheApp();
        }
    }

    private static Activation online(java.util.function.Supplier<Activation> call) {
        try {
            return call.get();
        } catch (KeyrightException e) {                       // no network, all activations taken, ...
            System.err.println("Cannot activate this machine: " + e.getMessage());
            return null;
        }
    }

    /** Stands in for the app's main loop. */
    static void runTheApp() {
    }
}
