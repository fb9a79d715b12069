package dev.keyright.seats.configuration;

import dev.keyright.seats.licenses.control.LicenseKeys;
import dev.keyright.seats.secrets.ServerSecret;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.time.ZoneOffset;

/** CDI producers for the one configuration and the one clock of this server. */
@ApplicationScoped
public class Settings {

    private final KeyrightConfig config = KeyrightConfig.fromEnvironment();
    private volatile ServerSecret secret;

    @Produces
    public KeyrightConfig config() {
        return config;
    }

    @Produces
    public ServerSecret secret() {
        ServerSecret loaded = secret;
        if (loaded == null) {
            synchronized (this) {
                if (secret == null) {
                    secret = ServerSecret.load(config);
                }
                loaded = secret;
            }
        }
        return loaded;
    }

    @Produces
    public LicenseKeys licenseKeys() {
        return new LicenseKeys(secret());
    }

    /** The server's clock decides every expiry: UTC, millisecond ticks. Tests replace it with an alternative. */
    @Produces
    public Clock clock() {
        return Clock.tickMillis(ZoneOffset.UTC);
    }
}
