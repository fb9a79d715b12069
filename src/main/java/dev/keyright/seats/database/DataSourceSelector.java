package dev.keyright.seats.database;

import dev.keyright.seats.configuration.ConfigurationException;
import dev.keyright.seats.configuration.FailedStart;
import dev.keyright.seats.configuration.KeyrightConfig;
import javax.sql.DataSource;
import org.eclipse.persistence.sessions.DatasourceLogin;
import org.eclipse.persistence.sessions.JNDIConnector;
import org.eclipse.persistence.sessions.Session;
import org.eclipse.persistence.sessions.SessionCustomizer;
import org.eclipse.persistence.sessions.server.ServerSession;

/**
 * Points EclipseLink at the database {@link Databases} chose. persistence.xml names the embedded
 * default; this customizer swaps in the operator's data source when there is one.
 */
public class DataSourceSelector implements SessionCustomizer {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(DataSourceSelector.class.getName());

    @Override
    public void customize(Session session) {
        DataSource external;
        try {
            external = Databases.external(KeyrightConfig.fromEnvironment()).orElse(null);
            if (external != null) {
                Databases.check(Databases.EXTERNAL, external);
            }
        } catch (ConfigurationException e) {
            LOG.severe("Keyright Seats could not start: " + e.getMessage());
            FailedStart.end(LOG);
            throw e;
        }
        if (external == null) {
            return; // persistence.xml already names the embedded default
        }
        ((DatasourceLogin) session.getDatasourceLogin()).setConnector(new JNDIConnector(external));
        if (session instanceof ServerSession server
                && server.getReadConnectionPool().getLogin() instanceof DatasourceLogin read
                && read != session.getDatasourceLogin()) {
            read.setConnector(new JNDIConnector(external));
        }
    }
}
