package dev.keyright.seats;

import dev.keyright.seats.admins.boundary.AdminCredentials;
import dev.keyright.seats.configuration.ConfigurationException;
import dev.keyright.seats.configuration.FailedStart;
import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Databases;
import dev.keyright.seats.database.Faults;
import dev.keyright.seats.database.Migrations;
import dev.keyright.seats.leases.boundary.LicenseFlags;
import dev.keyright.seats.leases.boundary.SigningKeys;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.secrets.ServerSecret;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Start-up, in order: validate the settings, choose and reach the database, migrate the schema, load
 * the signing key and the admin credentials, flag the licenses with blocks or waiters ({@link LicenseFlags}). Any
 * failure stops the deployment with one clear message; nothing falls back silently.
 */
@Startup
@Singleton
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
@DataSourceDefinition(name = Databases.EMBEDDED,
        className = "dev.keyright.seats.database.EmbeddedDataSource",
        databaseName = "keyright", // ignored by the class; WildFly refuses a definition without one connection property
        isolationLevel = Connection.TRANSACTION_READ_COMMITTED,
        minPoolSize = 1, maxPoolSize = 32)
public class StartUp {

    private static final Logger LOG = Logger.getLogger(StartUp.class.getName());
    private static final int CONVERGE_ATTEMPTS = 10;
    static final String MICROPROFILE_HEALTH = "org.eclipse.microprofile.health.HealthCheck";

    /** Read inside {@link #start}, not injected as values, so that a bad setting is this class's failure to report. */
    @Inject
    Instance<KeyrightConfig> settings;
    @Inject
    Instance<ServerSecret> secret;
    private KeyrightConfig config;
    @EJB
    SigningKeys signingKeys;
    @EJB
    AdminCredentials adminCredentials;
    @EJB
    LicenseFlags licenseFlags;

    @PostConstruct
    void start() {
        try {
            config = settings.get();
            secret.get();
            checkDefaultPolicy();
            Databases.Choice database = Databases.choose(config);
            Databases.check(database.jndiName(), database.dataSource());
            Migrations.migrate(database.dataSource());
            converged(signingKeys::load);
            converged(adminCredentials::load);
            converged(licenseFlags::flagWhatIsThere);
            LOG.info(() -> "Keyright Seats is ready on " + (database.embedded()
                    ? "the embedded database in " + config.dataDir()
                    : "the data source " + database.jndiName()) + ". Admin user: '" + config.adminUser() + "'.");
            if (!serverHas(MICROPROFILE_HEALTH)) {
                LOG.info("Keyright Seats runs without MicroProfile Health (this server does not provide it): "
                        + "readiness is GET /v1/health only");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Keyright Seats could not start: {0}", reason(e));
            FailedStart.end(LOG);
            throw e;
        }
    }

    /** Whether the server lends this application an optional API (MicroProfile Health: Payara, WildFly's microprofile profile). */
    static boolean serverHas(String className) {
        try {
            Class.forName(className, false, StartUp.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError missing) {
            return false;
        }
    }

    /** The operator's problem, as this application worded it, wherever the container wrapped it. */
    static String reason(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConfigurationException) {
                return t.getMessage();
            }
        }
        return String.valueOf(failure.getMessage());
    }

    /** The defaults for new licenses obey the same bounds as any license's policy, which owns them. */
    private void checkDefaultPolicy() {
        List<String> problems = defaultPolicyProblems(config);
        if (!problems.isEmpty()) {
            throw new ConfigurationException(String.join("; ", problems));
        }
    }

    static List<String> defaultPolicyProblems(KeyrightConfig config) {
        Policy defaults = new Policy(1, config.defaultTtlSeconds(), config.defaultSkewSeconds());
        return defaults.problems(Policy.maxSkewSeconds(config.reapGrace())).stream()
                .map(error -> (error.field().equals("ttlSeconds") ? "KEYRIGHT_DEFAULT_TTL_SECONDS " : "KEYRIGHT_DEFAULT_SKEW_SECONDS ")
                        + error.message())
                .toList();
    }

    /**
     * Loads what the first node of an installation creates (the signing key, a generated admin password).
     * Nodes first starting together insert the same keys; the losers' inserts fail on the winner's row (on one
     * database server, its primary key; across Galera nodes, certification, which may fail the insert before the
     * winner's row has reached this node, or fail the commit), and a later load finds it.
     */
    static void converged(Runnable load) {
        for (int attempt = 1; ; attempt++) {
            try {
                load.run();
                return;
            } catch (RuntimeException raced) {
                if (!(Faults.isDuplicateKey(raced) || Faults.isDeadlock(raced) || Faults.isFailedCommit(raced)) || attempt == CONVERGE_ATTEMPTS) {
                    throw raced;
                }
                LOG.info("Another node created it first; loading theirs");
                java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
            }
        }
    }
}
