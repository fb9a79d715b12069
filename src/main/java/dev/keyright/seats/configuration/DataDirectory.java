package dev.keyright.seats.configuration;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * {@code KEYRIGHT_DATA_DIR}, kept private to the server's user: the folder is {@code rwx------} and
 * what the server keeps in it (the embedded database, the server secret) {@code rw-------}, whatever
 * the process's umask. Best effort on file systems without POSIX permissions.
 */
public final class DataDirectory {

    private static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private DataDirectory() {
    }

    /** Creates the folder if needed and makes it private. */
    public static Path ensurePrivate(Path folder) throws IOException {
        Files.createDirectories(folder);
        setPermissions(folder, FOLDER);
        return folder;
    }

    /** Makes every file in the folder whose name starts with {@code prefix} private. */
    public static void makeFilesPrivate(Path folder, String prefix) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, prefix + "*")) {
            for (Path file : files) {
                if (Files.isRegularFile(file)) {
                    setPermissions(file, FILE);
                }
            }
        }
    }

    public static void makePrivate(Path file) throws IOException {
        setPermissions(file, FILE);
    }

    private static void setPermissions(Path path, Set<PosixFilePermission> permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(path, permissions);
        } catch (UnsupportedOperationException notPosix) {
            // best effort
        }
    }
}
