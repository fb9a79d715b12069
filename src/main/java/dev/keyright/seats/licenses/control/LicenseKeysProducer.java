package dev.keyright.seats.licenses.control;

import dev.keyright.seats.secrets.ServerSecret;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/** License keys under this node's server secret (their per-purpose keys derived once per user). */
@ApplicationScoped
public class LicenseKeysProducer {

    @Inject
    ServerSecret secret;

    @Produces
    public LicenseKeys licenseKeys() {
        return new LicenseKeys(secret);
    }
}
