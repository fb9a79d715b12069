package dev.keyright.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The stable id of this install, sent with every acquire so that one install never holds two seats
 * of one license. Taken from {@code KEYRIGHT_CLIENT_INSTANCE_ID} when set, else read from (or
 * generated once into) {@code client-instance-id} in the user's config directory:
 * {@code $XDG_CONFIG_HOME/keyright/}, {@code ~/.config/keyright/}, or {@code %APPDATA%\keyright\} on Windows.
 */
public final class ClientInstanceId {

    public static final String ENVIRONMENT_VARIABLE = "KEYRIGHT_CLIENT_INSTANCE_ID";
    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final Logger LOG = Logger.getLogger(ClientInstanceId.class.getName());

    private ClientInstanceId() {
    }

    /** True when {@code id} is 1..128 characters of {@code [A-Za-z0-9._:-]}, as the contract requires. */
    public static boolean isValid(String id) {
        return id != null && FORMAT.matcher(id).matches();
    }

    /** The id for this process's environment: the variable if set, else the persisted one. */
    public static String resolve(Map<String, String> environment) {
        String fromEnvironment = environment.get(ENVIRONMENT_VARIABLE);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return requireValid(fromEnvironment.trim(), ENVIRONMENT_VARIABLE);
        }
        return loadOrCreate(defaultFile(environment, System.getProperty("os.name", ""),
                System.getProperty("user.home", ".")));
    }

    /** Where the id is kept for this user. */
    public static Path defaultFile(Map<String, String> environment, String osName, String userHome) {
        String appData = environment.get("APPDATA");
        String xdg = environment.get("XDG_CONFIG_HOME");
        Path base;
        if (osName.toLowerCase().startsWith("windows") && appData != null && !appData.isBlank()) {
            base = Paths.get(appData);
        } else if (xdg != null && !xdg.isBlank() && Paths.get(xdg).isAbsolute()) {
            base = Paths.get(xdg);
        } else {
            base = Paths.get(userHome, ".config");
        }
        return base.resolve("keyright").resolve("client-instance-id");
    }

    /**
     * Reads the id kept in {@code file}, or generates one and keeps it there. When the file cannot
     * be written, the generated id is used for this process only (and a warning is logged).
     */
    public static String loadOrCreate(Path file) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<String> existing = read(file);
            if (existing.isPresent()) return existing.get();
            String generated = "inst-" + UUID.randomUUID();
            try {
                Files.createDirectories(file.getParent());
                Files.write(file, (generated + "\n").getBytes(StandardCharsets.US_ASCII),
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return generated;
            } catch (FileAlreadyExistsException raced) {
                // another process (or a malformed leftover) is there: read it again, or replace a bad one
                if (attempt > 0) deleteQuietly(file);
            } catch (IOException e) {
                LOG.warning("Cannot keep the client instance id in " + file + " (" + e
                        + "); using a fresh one for this process");
                return generated;
            }
        }
        return "inst-" + UUID.randomUUID();
    }

    static String requireValid(String id, String source) {
        if (!isValid(id)) {
            throw new IllegalArgumentException(source + " must be 1..128 characters of [A-Za-z0-9._:-]");
        }
        return id;
    }

    private static Optional<String> read(Path file) {
        try {
            String id = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
            return isValid(id) ? Optional.of(id) : Optional.empty();
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        } catch (IOException unreadable) {
            LOG.log(Level.FINE, "Cannot read " + file, unreadable);
            return Optional.empty();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the next attempt will say so
        }
    }
}
