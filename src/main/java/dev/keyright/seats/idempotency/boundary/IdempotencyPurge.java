package dev.keyright.seats.idempotency.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Batches;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;

/**
 * Drops stored answers older than {@link IdempotencyRecords#RETENTION}, every
 * {@code KEYRIGHT_REAP_INTERVAL_SECONDS} on every node, in bounded batches: the idempotency feature
 * purges its own table.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class IdempotencyPurge {

    @Resource
    TimerService timers;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @EJB
    IdempotencyRecords records;

    @PostConstruct
    void schedule() {
        long interval = config.reapInterval().toMillis();
        timers.createIntervalTimer(interval, interval, new TimerConfig("idempotency purge", false));
    }

    @Timeout
    void onTimeout() {
        purge();
    }

    /** Purges now; returns how many records went. */
    public int purge() {
        Instant before = clock.instant().minus(IdempotencyRecords.RETENTION);
        return Batches.drain(config.reapBatchSize(), () -> records.purgeBefore(before, config.reapBatchSize()));
    }
}
