package dev.keyright.seats.configuration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.time.ZoneOffset;

/** CDI producers for the one configuration and the one clock of this server. */
@ApplicationScoped
public class Settings {

    private final KeyrightConfig config = KeyrightConfig.fromEnvironment();

    @Produces
    public KeyrightConfig config() {
        return config;
    }

    /** The server's clock decides every expiry: UTC, millisecond ticks. Tests replace it with an alternative. */
    @Produces
    public Clock clock() {
        return Clock.tickMillis(ZoneOffset.UTC);
    }
}
