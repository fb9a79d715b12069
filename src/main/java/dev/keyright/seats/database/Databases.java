package dev.keyright.seats.database;

import dev.keyright.seats.configuration.ConfigurationException;
import dev.keyright.seats.configuration.KeyrightConfig;
import java.sql.Connection;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Which database this server uses, decided in one place.
 * <ol>
 * <li>An operator-configured data source bound at {@value #EXTERNAL} (Payara's {@code mariadb.asadmin},
 * or any Jakarta EE server's own JDBC resource) always wins.</li>
 * <li>When {@code KEYRIGHT_DB_URL} is set but that resource is missing, start-up fails: the operator asked
 * for an external database and must never silently get the embedded one.</li>
 * <li>Otherwise the embedded default {@value #EMBEDDED} (H2 under {@code KEYRIGHT_DATA_DIR}).</li>
 * </ol>
 */
public final class Databases {

    public static final String EXTERNAL = "jdbc/keyright";
    public static final String EMBEDDED = "java:app/jdbc/keyright-embedded";

    private Databases() {
    }

    /** The database to use; the embedded one is looked up in the application's naming context. */
    public static Choice choose(KeyrightConfig config) {
        return external(config).map(ds -> new Choice(EXTERNAL, ds, false)).orElseGet(() -> {
            try {
                return new Choice(EMBEDDED, (DataSource) new InitialContext().lookup(EMBEDDED), true);
            } catch (NamingException e) {
                throw new ConfigurationException("No database: cannot look up " + EMBEDDED + " (" + e.getMessage() + ")");
            }
        });
    }

    /** The operator's data source, if there is one; fails when one was asked for but is missing. */
    public static java.util.Optional<DataSource> external(KeyrightConfig config) {
        DataSource external;
        try {
            external = lookup(new InitialContext(), EXTERNAL);
        } catch (NamingException e) {
            external = null;
        }
        if (external == null && config.externalDatabaseRequested()) {
            throw new ConfigurationException("KEYRIGHT_DB_URL is set but no JDBC resource '" + EXTERNAL
                    + "' exists: the post-boot command file (server-config/mariadb.asadmin) did not run or"
                    + " failed, or the driver jar was not added with --addlibs. Refusing to fall back to the"
                    + " embedded database.");
        }
        return java.util.Optional.ofNullable(external);
    }

    private static DataSource lookup(InitialContext context, String name) {
        try {
            return (DataSource) context.lookup(name);
        } catch (NamingException e) {
            return null;
        }
    }

    /**
     * The database must answer, with these credentials, and seat transactions must run at READ COMMITTED:
     * checked before EclipseLink logs in (whose failure would be a stack trace and a deployment left half up)
     * and again at start-up.
     */
    public static void check(String jndiName, DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.isValid(5)) {
                throw new ConfigurationException("The database behind " + jndiName + " does not answer");
            }
            int isolation = connection.getTransactionIsolation();
            if (isolation != Connection.TRANSACTION_READ_COMMITTED) {
                throw new ConfigurationException("The data source " + jndiName + " must use READ COMMITTED"
                        + " isolation (set the pool's transaction isolation to read-committed); it uses level " + isolation);
            }
        } catch (SQLException e) {
            throw new ConfigurationException("Cannot reach the database behind " + jndiName + " (check KEYRIGHT_DB_URL,"
                    + " KEYRIGHT_DB_USER and KEYRIGHT_DB_PASSWORD, and that the database is up): " + deepestMessage(e));
        }
    }

    /** The driver's own words (refused connection, access denied), first line only. */
    private static String deepestMessage(SQLException e) {
        String message = String.valueOf(Faults.root(e).getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** The chosen data source and its JNDI name. */
    public record Choice(String jndiName, DataSource dataSource, boolean embedded) {
    }
}
