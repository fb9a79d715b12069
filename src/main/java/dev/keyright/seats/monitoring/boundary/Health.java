package dev.keyright.seats.monitoring.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

/** Readiness as one decision: ready when the database answers; clock drift past half the skew is a warning. */
@ApplicationScoped
public class Health {

    @EJB
    DatabaseProbe probe;

    public Status check() {
        DatabaseProbe.Reading reading = probe.read();
        return new Status(reading.reachable(), reading.driftMillis(), reading.reachable() && probe.driftWarning(reading));
    }

    /** The outcome of one check. */
    public record Status(boolean databaseReachable, long clockDriftMillis, boolean clockDriftWarning) {
        public boolean up() {
            return databaseReachable;
        }
    }
}
