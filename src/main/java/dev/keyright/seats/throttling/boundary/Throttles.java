package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.throttling.control.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/** A throttle with the configured limits for each guard that injects one: every guard keeps its own ledger. */
@ApplicationScoped
public class Throttles {

    @Inject
    KeyrightConfig config;

    @Produces
    @Dependent
    public Throttle throttle() {
        return Throttle.configured(config);
    }
}
