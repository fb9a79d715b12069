package dev.keyright.seats.monitoring.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** MicroProfile Health readiness, where the server provides it: the database answers; the clock drift as data. */
@Readiness
@ApplicationScoped
public class SeatsReadiness implements HealthCheck {

    @Inject
    Health health;

    @Override
    public HealthCheckResponse call() {
        Health.Status status = health.check();
        return HealthCheckResponse.named("keyright-seats")
                .status(status.up())
                .withData("databaseReachable", status.databaseReachable())
                .withData("clockDriftMillis", status.clockDriftMillis())
                .withData("clockDriftWarning", status.clockDriftWarning())
                .build();
    }
}
