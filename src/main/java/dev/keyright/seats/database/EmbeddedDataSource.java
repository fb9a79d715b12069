package dev.keyright.seats.database;

import dev.keyright.seats.configuration.DataDirectory;
import dev.keyright.seats.configuration.KeyrightConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The embedded default: an H2 database file under {@code KEYRIGHT_DATA_DIR}, so the WAR deployed
 * as it is keeps its data across restarts. The container pools it like any other driver.
 */
public class EmbeddedDataSource implements DataSource {

    private static final String FILE_NAME = "keyright";

    private final JdbcDataSource h2 = new JdbcDataSource();
    private final Path dataDir;
    private volatile boolean filesPrivate;

    public EmbeddedDataSource() {
        KeyrightConfig config = KeyrightConfig.fromEnvironment();
        dataDir = config.dataDir();
        h2.setURL(url(config));
        h2.setUser("keyright");
        h2.setPassword("");
    }

    static String url(KeyrightConfig config) {
        String file = config.dataDir().resolve(FILE_NAME).toString().replace('\\', '/');
        // LOCK_TIMEOUT bounds a checkout's wait for the license row lock, like innodb_lock_wait_timeout.
        return "jdbc:h2:file:" + file + ";MODE=MariaDB;DATABASE_TO_LOWER=TRUE;LOCK_TIMEOUT=3000;DB_CLOSE_ON_EXIT=FALSE";
    }

    /** The container passes the standard serverName and databaseName attributes; H2 has no use for them. */
    public void setServerName(String ignored) {
        // embedded: there is no server
    }

    public void setDatabaseName(String ignored) {
        // the file is fixed under KEYRIGHT_DATA_DIR
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (!filesPrivate) {
            makePrivate();
        }
        Connection connection = h2.getConnection();
        if (!filesPrivate) {
            try {
                DataDirectory.makeFilesPrivate(dataDir, FILE_NAME + ".");
                filesPrivate = true;
            } catch (IOException e) {
                throw new SQLException("Cannot make the embedded database private in " + dataDir + ": " + e.getMessage(), e);
            }
        }
        return connection;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection();
    }

    /** The folder is private before H2 creates its file in it, so the file is never readable by others. */
    private void makePrivate() throws SQLException {
        try {
            DataDirectory.ensurePrivate(dataDir);
        } catch (IOException e) {
            throw new SQLException("Cannot create the data folder " + dataDir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public PrintWriter getLogWriter() {
        return h2.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        h2.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) {
        h2.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() {
        return h2.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return h2.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this) || type.isInstance(h2);
    }
}
