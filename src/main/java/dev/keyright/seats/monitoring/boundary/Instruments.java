package dev.keyright.seats.monitoring.boundary;

import dev.keyright.seats.leases.boundary.Pools;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.monitoring.control.ReaperStatistics;
import dev.keyright.seats.monitoring.control.SeatMetrics;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers the MXBeans on the platform MBean server at start-up (and a pool's bean when its license
 * is issued), unregisters them at undeploy. A registration failure is logged, never thrown: monitoring
 * must not stop the seats.
 */
@Singleton
@Startup
@DependsOn("StartUp")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Instruments {

    public static final String DOMAIN = "dev.keyright";
    private static final Logger LOG = Logger.getLogger(Instruments.class.getName());

    @EJB
    Licenses licenses;
    @EJB
    Pools poolViews;
    @Inject
    SeatMetrics metrics;
    @Inject
    ReaperStatistics reaper;
    @EJB
    DatabaseProbe probe;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final Map<String, SeatPoolMonitor> pools = new ConcurrentHashMap<>();
    private final Map<ObjectName, Object> registered = new ConcurrentHashMap<>();

    @PostConstruct
    void start() {
        register(name("type", "SeatService"), new SeatServiceMonitor(licenses, metrics, probe));
        register(name("type", "Reaper"), new ReaperMonitor(reaper));
        try {
            licenses.all().forEach(this::watch);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not register the pool MXBeans: {0}", e.toString());
        }
    }

    /** Adds the MXBean of a newly issued license. */
    public void watch(License license) {
        SeatPoolMonitor monitor = new SeatPoolMonitor(license.id(), license.product(), poolViews, metrics);
        if (register(poolName(license.id()), monitor)) {
            pools.put(license.id(), monitor);
        }
    }

    public void onIssued(@Observes Licenses.Issued issued) {
        watch(issued.license());
    }

    public void onPoolFull(@Observes SeatMetrics.PoolFull full) {
        SeatPoolMonitor monitor = pools.get(full.licenseId());
        if (monitor != null) {
            monitor.notifyFull(full);
        }
    }

    public void onOverdraft(@Observes SeatMetrics.OverdraftStarted started) {
        SeatPoolMonitor monitor = pools.get(started.licenseId());
        if (monitor != null) {
            monitor.notifyOverdraft(started);
        }
    }

    @PreDestroy
    void stop() {
        registered.keySet().forEach(name -> {
            try {
                server.unregisterMBean(name);
            } catch (Exception e) {
                LOG.log(Level.FINE, "Already gone: {0}", name);
            }
        });
        registered.clear();
        pools.clear();
    }

    public static ObjectName poolName(String licenseId) {
        return name("type", "SeatPool", "license", licenseId);
    }

    private boolean register(ObjectName name, Object bean) {
        if (name == null) {
            return false;
        }
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name); // left behind by an earlier deployment of this application
            }
            server.registerMBean(bean, name);
            registered.put(name, bean);
            return true;
        } catch (Exception | LinkageError e) {
            LOG.log(Level.WARNING, "Could not register MXBean {0}: {1}", new Object[] {name, e.toString()});
            return false;
        }
    }

    private static ObjectName name(String... keysAndValues) {
        StringBuilder text = new StringBuilder(DOMAIN).append(':');
        for (int i = 0; i < keysAndValues.length; i += 2) {
            String value = keysAndValues[i + 1];
            text.append(i == 0 ? "" : ",").append(keysAndValues[i]).append('=')
                    .append(value.matches("[A-Za-z0-9_.-]+") ? value : ObjectName.quote(value));
        }
        try {
            return new ObjectName(text.toString());
        } catch (javax.management.MalformedObjectNameException e) {
            LOG.log(Level.WARNING, "Bad MXBean name {0}", text);
            return null;
        }
    }
}
