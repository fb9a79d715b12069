package dev.keyright.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The identity the operating system gives this machine, which outlives reboots and updates and differs between
 * installs: Linux's {@code /etc/machine-id} (else D-Bus's {@code /var/lib/dbus/machine-id}), Windows'
 * {@code MachineGuid} (read with {@code reg query}), macOS's {@code IOPlatformUUID} (read with {@code ioreg}).
 * The files and commands are injected, so a test can be a second machine.
 */
final class MachineIdentity {

    static final List<Path> LINUX_FILES = List.of(Paths.get("/etc/machine-id"), Paths.get("/var/lib/dbus/machine-id"));
    static final List<String> WINDOWS_COMMAND =
            List.of("reg", "query", "HKLM\\SOFTWARE\\Microsoft\\Cryptography", "/v", "MachineGuid");
    static final List<String> MAC_COMMAND = List.of("ioreg", "-rd1", "-c", "IOPlatformExpertDevice");
    private static final Pattern MACHINE_GUID = Pattern.compile("MachineGuid\\s+REG_SZ\\s+(\\S+)");
    private static final Pattern PLATFORM_UUID = Pattern.compile("\"IOPlatformUUID\"\\s*=\\s*\"([^\"]+)\"");
    private static final long COMMAND_SECONDS = 5;

    private final String osName;
    private final Function<Path, Optional<String>> files;
    private final Function<List<String>, Optional<String>> commands;

    /**
     * @param files    reads a file's text, empty when it cannot
     * @param commands runs a command and answers its standard output, empty when it fails or takes too long
     */
    MachineIdentity(String osName, Function<Path, Optional<String>> files,
                    Function<List<String>, Optional<String>> commands) {
        this.osName = osName.toLowerCase(Locale.ROOT);
        this.files = files;
        this.commands = commands;
    }

    static MachineIdentity ofThisMachine() {
        return new MachineIdentity(System.getProperty("os.name", ""), MachineIdentity::readFile, MachineIdentity::runCommand);
    }

    /**
     * This machine's identity, trimmed and in lower case (macOS writes its UUID in capitals, Windows not).
     *
     * @throws KeyrightException when the operating system gives none (a container without a machine id, say):
     *                           pass a fingerprint of your own then
     */
    String read() {
        Optional<String> identity;
        if (osName.startsWith("windows")) {
            identity = commands.apply(WINDOWS_COMMAND).flatMap(out -> find(MACHINE_GUID, out));
        } else if (osName.startsWith("mac") || osName.startsWith("darwin")) {
            identity = commands.apply(MAC_COMMAND).flatMap(out -> find(PLATFORM_UUID, out));
        } else {
            identity = LINUX_FILES.stream().map(files).flatMap(Optional::stream).map(String::trim)
                    .filter(id -> !id.isEmpty() && !id.equals("uninitialized")).findFirst();
        }
        return identity.map(id -> id.trim().toLowerCase(Locale.ROOT)).orElseThrow(() -> new KeyrightException(
                "Cannot tell this machine's identity (" + where() + "); give the client a fingerprint of your own"));
    }

    private String where() {
        if (osName.startsWith("windows")) return "no MachineGuid from reg query";
        if (osName.startsWith("mac") || osName.startsWith("darwin")) return "no IOPlatformUUID from ioreg";
        return "no /etc/machine-id nor /var/lib/dbus/machine-id";
    }

    private static Optional<String> find(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static Optional<String> readFile(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Output goes to a temporary file, so a command that writes much cannot block on a full pipe, nor one that hangs block us. */
    private static Optional<String> runCommand(List<String> command) {
        Path output = null;
        try {
            output = Files.createTempFile("keyright-machine-identity", ".txt");
            Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            process.getOutputStream().close();
            if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return Optional.empty();
            }
            return process.exitValue() == 0 ? Optional.of(Files.readString(output, StandardCharsets.UTF_8))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (output != null) output.toFile().delete();
        }
    }
}
