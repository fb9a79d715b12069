package dev.keyright.seats.testing;

import java.io.File;

/** The runnable keyright-client CLI jar the client module built (its path comes from failsafe's configuration). */
public final class CliJar {

    private CliJar() {
    }

    public static File path() {
        String path = System.getProperty("keyright.cli.jar", "client/target/keyright-client-0.1.0-SNAPSHOT-cli.jar");
        File jar = new File(path);
        if (!jar.isFile()) {
            throw new IllegalStateException("Build the client module first (mvn package): " + jar.getAbsolutePath());
        }
        return jar;
    }
}
