package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/** Every {@code KEYRIGHT_REAP_INTERVAL_SECONDS}, on every node (a non-persistent timer): one sweep. */
@Singleton
@Startup
@DependsOn("StartUp")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ReaperTimer {

    @Resource
    TimerService timers;
    @Inject
    KeyrightConfig config;
    @Inject
    LeaseReaper reaper;

    @PostConstruct
    void schedule() {
        long interval = config.reapInterval().toMillis();
        timers.createIntervalTimer(interval, interval, new TimerConfig("lease reaper", false));
    }

    @Timeout
    void sweep() {
        reaper.reap();
    }
}
