package dev.keyright.seats.database;

import dev.keyright.seats.configuration.KeyrightConfig;
import java.io.PrintWriter;
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

    private final JdbcDataSource h2 = new JdbcDataSource();

    public EmbeddedDataSource() {
        h2.setURL(url(KeyrightConfig.fromEnvironment()));
        h2.setUser("keyright");
        h2.setPassword("");
    }

    static String url(KeyrightConfig config) {
        String file = config.dataDir().resolve("keyright").toString().replace('\\', '/');
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
        return h2.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return h2.getConnection();
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
