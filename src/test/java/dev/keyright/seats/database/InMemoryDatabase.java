package dev.keyright.seats.database;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;

/** A new database on the embedded default's engine (H2 in MariaDB mode, in memory), and the two statements the schema tests read and change it with. */
final class InMemoryDatabase {

    private final JdbcDataSource source = new JdbcDataSource();

    InMemoryDatabase(String name) {
        source.setURL("jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";MODE=MariaDB;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        source.setUser("keyright");
    }

    JdbcDataSource source() {
        return source;
    }

    /** The first column of the first row: a {@code SELECT COUNT(*)}. */
    long count(String sql) throws SQLException {
        try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    void execute(String sql) throws SQLException {
        try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
