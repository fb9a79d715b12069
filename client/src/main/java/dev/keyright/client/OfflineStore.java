package dev.keyright.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The offline store's file, {@code offline.json} in one directory per product. Every change is a
 * read-change-write under a lock ({@code offline.lock}, locked by the process, and a monitor within this JVM),
 * because an app checking its activation moves {@code lastSeen} while the CLI may be borrowing a seat: without
 * the lock one would write back a document that misses the other's entry. A write goes to a temporary file in
 * the same directory, is forced to disk, then moved over the old one, so a crash leaves the old document or the
 * new one, never half of one. Owner-only permissions ({@code rw-------}, directories {@code rwx------}) where the
 * file system is POSIX; elsewhere (Windows) the user's profile directory already keeps others out.
 */
final class OfflineStore {

    static final String FILE_NAME = "offline.json";
    private static final String LOCK_NAME = "offline.lock";
    private static final ConcurrentMap<Path, Object> MONITORS = new ConcurrentHashMap<>();

    /** What a change leaves in the store, and what it answers. */
    record Change<T>(OfflineState next, T result) {
    }

    private final Path directory;
    private final Path file;
    private final String product;
    private final Object monitor;

    OfflineStore(Path directory, String product) {
        this.directory = directory.toAbsolutePath().normalize();
        this.file = this.directory.resolve(FILE_NAME);
        this.product = product;
        this.monitor = MONITORS.computeIfAbsent(this.directory, d -> new Object());
    }

    Path file() {
        return file;
    }

    /** The stored state (empty when nothing is stored); a read never sees half a write, so it takes no lock. */
    OfflineState read() {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException absent) {
            return OfflineState.empty(product);
        } catch (IOException e) {
            throw new KeyrightException("Cannot read the offline store " + file + ": " + e, e);
        }
    }

    /**
     * Applies {@code change} to the stored state under the lock and keeps what it returns: written when it
     * differs, the file deleted when nothing is left. When {@code change} throws, nothing is written. A change
     * must depend on the state alone: it may run twice when the store's directory does not exist yet.
     */
    <T> T update(Function<OfflineState, Change<T>> change) {
        synchronized (monitor) {
            try {
                if (!Files.isDirectory(directory)) {
                    Change<T> outcome = change.apply(OfflineState.empty(product));
                    if (outcome.next().isEmpty()) return outcome.result();
                    Files.createDirectories(directory, ownerOnly("rwx------"));
                }
                try (FileChannel lockFile = FileChannel.open(directory.resolve(LOCK_NAME), ownerOnlyOpen(),
                        ownerOnly("rw-------")); FileLock lock = lockFile.lock()) {
                    OfflineState current = read();
                    Change<T> outcome = change.apply(current);
                    if (outcome.next() != current) keep(outcome.next());
                    return outcome.result();
                }
            } catch (IOException e) {
                throw new KeyrightException("Cannot write the offline store " + file + ": " + e, e);
            }
        }
    }

    private OfflineState parse(String text) {
        OfflineState state;
        try {
            state = OfflineState.parse(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new OfflineLicenseInvalidException("The offline store " + file + " is unreadable ("
                    + e.getMessage() + "); delete it, then borrow or activate again", e);
        }
        if (!state.product().equals(product)) {
            throw new OfflineLicenseInvalidException("The offline store " + file + " is for product '"
                    + state.product() + "', not '" + product + "'", null);
        }
        return state;
    }

    private void keep(OfflineState next) throws IOException {
        if (next.isEmpty()) {
            Files.deleteIfExists(file);
            return;
        }
        Path temp = Files.createTempFile(directory, ".offline-", ".tmp", ownerOnly("rw-------"));
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(next.toJson().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) channel.write(bytes);
                channel.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static java.util.Set<StandardOpenOption> ownerOnlyOpen() {
        return java.util.EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    private FileAttribute<?>[] ownerOnly(String permissions) {
        if (!directory.getFileSystem().supportedFileAttributeViews().contains("posix")) return new FileAttribute<?>[0];
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))};
    }
}
