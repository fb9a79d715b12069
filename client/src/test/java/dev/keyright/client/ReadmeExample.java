package dev.keyright.client;

import dev.keyright.client.KeyrightClient;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.Lease;
import dev.keyright.client.SeatKeepAlive;
import dev.keyright.client.SeatMetadata;
import dev.keyright.client.SeatState;
import dev.keyright.client.SeatsExhaustedException;
import java.time.Duration;

/** Holds a floating seat of "acme-studio" for as long as the app runs. */
public final class ReadmeExample {

    public static void main(String[] args) throws InterruptedException {
        KeyrightClient keyright = KeyrightClient.builder()
                .server("https://licensing.example.com")          // your Keyright Seats server
                .product("acme-studio")
                .licenseKey(System.getenv("ACME_LICENSE_KEY"))
                .issuer("https://licensing.example.com")          // the server's KEYRIGHT_ISSUER
                .metadata(SeatMetadata.describeThisMachine(System.getenv()))  // user and host, for the pool view
                .build();

        Lease lease;
        try {
            // Waits up to 30 s in the server's queue for the license (its place kept between holds).
            lease = keyright.acquireSeatWaiting(Duration.ofSeconds(30), (full, waited) ->
                    System.err.println("All " + full.maxSeats() + " seats are in use; place in line "
                            + full.queuePosition().orElse(0) + ", waiting " + waited.toSeconds() + " s"));
        } catch (SeatsExhaustedException full) {
            System.err.println("All " + full.maxSeats() + " seats are still in use. Try again in a while.");
            return;
        } catch (KeyrightException noSeat) {           // license refused, server unreachable, bad token...
            System.err.println("No seat: " + noSeat.getMessage());
            return;
        }

        // Fail closed: licensed features are on only while the seat is HELD (or UNCERTAIN, still
        // within its lease). The listener runs on the keep-alive's thread.
        try (SeatKeepAlive seat = keyright.keepAlive(lease, (previous, current, cause) -> {
            if (current == SeatState.LOST) {
                LicensedFeatures.disable("The seat was lost: " + cause.getMessage());
            }
        })) {
            LicensedFeatures.enable();
            runTheApp();
        } // close() stops renewing and releases the seat at once
    }

    /** Stands in for the app's own switch of its licensed features. */
    static final class LicensedFeatures {
        static volatile boolean enabled;

        static void enable() {
            enabled = true;
        }

        static void disable(String why) {
            enabled = false;
            System.err.println(why);
        }
    }

    /** Stands in for the app's main loop. */
    static void runTheApp() throws InterruptedException {
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}
