package dev.keyright.seats.database;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * One versioned schema script, {@code db/migration/V<version>__<description>.sql}: its statements, and the
 * checksum its history row keeps. The name, description and checksum are the ones Flyway (which applied these
 * scripts before 2026-12-05) wrote for the same file, so a database migrated by either reads the same history.
 */
record MigrationScript(int version, String description, String fileName, String sql) {

    static final String LOCATION = "db/migration/";
    private static final Pattern NAME = Pattern.compile("V([1-9][0-9]*)__([A-Za-z0-9_]+)\\.sql");

    static MigrationScript load(String fileName) {
        Matcher name = NAME.matcher(fileName);
        if (!name.matches()) {
            throw new IllegalArgumentException("Not a versioned migration's name: " + fileName);
        }
        try (InputStream in = MigrationScript.class.getClassLoader().getResourceAsStream(LOCATION + fileName)) {
            if (in == null) {
                throw new IllegalStateException("Migration script missing from the application: " + LOCATION + fileName);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new MigrationScript(Integer.parseInt(name.group(1)), name.group(2).replace('_', ' '), fileName, sql);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + LOCATION + fileName, e);
        }
    }

    /** CRC32 of the script's lines without their line breaks (and without a leading byte-order mark), as a signed int. */
    int checksum() {
        CRC32 crc = new CRC32();
        try (BufferedReader lines = new BufferedReader(new StringReader(sql.startsWith("\uFEFF") ? sql.substring(1) : sql))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                crc.update(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return (int) crc.getValue();
    }

    /** The statements, without comments; a {@code ;} ends one unless it is inside a quoted string or name. */
    List<String> statements() {
        List<String> statements = new ArrayList<>();
        StringBuilder statement = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalStateException(fileName + ": a comment is not closed");
                }
                statement.append(' ');
                i = end + 2;
            } else if (c == '\'' || c == '"' || c == '`') {
                int end = closingQuote(c, i + 1);
                statement.append(sql, i, end + 1);
                i = end + 1;
            } else if (c == ';') {
                add(statements, statement);
                i++;
            } else {
                statement.append(c);
                i++;
            }
        }
        add(statements, statement);
        return statements;
    }

    /** A quote is closed by the same character; doubled, it stands for itself. */
    private int closingQuote(char quote, int from) {
        for (int i = from; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        throw new IllegalStateException(fileName + ": a quoted string or name is not closed");
    }

    private static void add(List<String> statements, StringBuilder statement) {
        String text = statement.toString().strip();
        if (!text.isEmpty()) {
            statements.add(text);
        }
        statement.setLength(0);
    }
}
