package dev.keyright.seats.database;

import dev.keyright.seats.configuration.KeyrightConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import javax.sql.DataSource;

/**
 * The data source the persistence unit uses ({@link Databases#choose}), looked up once, for the code that talks
 * JDBC itself: the heartbeat's one statement and the health probe.
 */
@ApplicationScoped
public class ChosenDatabase {

    @Inject
    KeyrightConfig config;

    private volatile DataSource dataSource;

    public ChosenDatabase() {
    }

    /** A database chosen already (tests). */
    public ChosenDatabase(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public DataSource dataSource() {
        DataSource known = dataSource;
        if (known == null) {
            known = Databases.choose(config).dataSource();
            dataSource = known;
        }
        return known;
    }
}
