package dev.keyright.client.cli;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The parsed command line, with {@code KEYRIGHT_SERVER}, {@code KEYRIGHT_PRODUCT} and {@code KEYRIGHT_LICENSE_KEY} as fallbacks. */
final class CliOptions {

    static final Set<String> COMMANDS = Set.of("run", "acquire", "renew", "release", "pool", "admin", "help",
            "borrow", "return", "status", "activate", "deactivate");
    /** What the contract lets a borrow be: whole hours from 1 to the largest {@code maxBorrowHours}, 720. */
    static final Duration SHORTEST_BORROW = Duration.ofHours(1);
    static final Duration LONGEST_BORROW = Duration.ofHours(720);
    private static final Set<String> WITH_VALUE = Set.of("--server", "--product", "--key", "--wait", "--queue-hold", "--issuer",
            "--public-key", "--from", "--to", "--bucket", "--block", "--fingerprint");

    String command;
    final List<String> arguments = new ArrayList<>();
    final List<String> childCommand = new ArrayList<>();
    URI server;
    String product;
    String licenseKey;
    String issuer;
    Path publicKey;
    Duration wait = Duration.ZERO;
    /** How long the server holds each queued request; null: the SDK's default. */
    Duration queueHold;
    boolean killOnLoss;
    boolean json;
    /** admin usage: the window and bucket, as the admin API takes them (null: the server's defaults). */
    String from;
    String to;
    String bucket;
    /** admin revoke: also block the install this long. */
    Duration block = Duration.ZERO;
    /** borrow: for how long (its one argument). */
    Duration borrowFor;
    /** activate, status: this machine's fingerprint; null: the SDK's default. */
    String fingerprint;

    static CliOptions parse(String[] args, Map<String, String> environment) throws UsageException {
        CliOptions options = new CliOptions();
        String server = environment.get("KEYRIGHT_SERVER");
        options.product = environment.get("KEYRIGHT_PRODUCT");
        options.licenseKey = environment.get("KEYRIGHT_LICENSE_KEY");
        String hold = environment.get("KEYRIGHT_QUEUE_HOLD");
        if (hold != null && !hold.isBlank()) options.queueHold = WaitBudget.parse(hold.trim());
        boolean separated = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (separated) {
                options.childCommand.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                separated = true;
                continue;
            }
            if (arg.equals("-h") || arg.equals("--help")) {
                options.command = "help";
                return options;
            }
            if (!arg.startsWith("-")) {
                if (options.command == null) options.command = arg;
                else options.arguments.add(arg);
                continue;
            }
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value = null;
            if (WITH_VALUE.contains(name)) {
                if (arg.contains("=")) value = arg.substring(arg.indexOf('=') + 1);
                else if (i + 1 < args.length) value = args[++i];
                else throw new UsageException(name + " needs a value");
            } else if (arg.contains("=")) {
                throw new UsageException(name + " takes no value");
            }
            switch (name) {
                case "--server": server = value; break;
                case "--product": options.product = value; break;
                case "--key": options.licenseKey = value; break;
                case "--issuer": options.issuer = value; break;
                case "--public-key": options.publicKey = Path.of(value); break;
                case "--wait": options.wait = WaitBudget.parse(value); break;
                case "--queue-hold": options.queueHold = WaitBudget.parse(value); break;
                case "--kill-on-loss": options.killOnLoss = true; break;
                case "--json": options.json = true; break;
                case "--from": options.from = value; break;
                case "--to": options.to = value; break;
                case "--bucket": options.bucket = value; break;
                case "--block": options.block = WaitBudget.parse(value); break;
                case "--fingerprint": options.fingerprint = value; break;
                default: throw new UsageException("unknown option " + arg);
            }
        }
        options.check(separated, server);
        return options;
    }

    private void check(boolean separated, String server) throws UsageException {
        if (command == null) throw new UsageException("no command given");
        if (!COMMANDS.contains(command)) throw new UsageException("unknown command '" + command + "'");
        if (command.equals("help")) return;
        if (command.equals("admin")) {
            if (separated) throw new UsageException("admin takes no command after '--'");
            AdminCommand.checkArguments(arguments);
            this.server = requireServer(server);
            return;
        }
        if (from != null || to != null || bucket != null || !block.isZero()) {
            throw new UsageException("--from, --to, --bucket and --block are for admin commands");
        }
        boolean run = command.equals("run");
        if (run && childCommand.isEmpty()) throw new UsageException("run needs a command after '--'");
        if (!run && separated) throw new UsageException(command + " takes no command after '--'");
        if (run && !arguments.isEmpty()) throw new UsageException("put the command to run after '--'");
        boolean borrow = command.equals("borrow");
        int expected = command.equals("release") || command.equals("renew") || borrow ? 1 : 0;
        if (!run && arguments.size() != expected) {
            throw new UsageException(expected == 0 ? command + " takes no arguments"
                    : borrow ? "borrow needs one DURATION, such as 8h" : command + " needs one LEASE_ID");
        }
        if (borrow) borrowFor = borrowDuration(arguments.get(0));
        if (killOnLoss && !run) throw new UsageException("--kill-on-loss is for run only");
        checkFingerprint();
        boolean offline = command.equals("status"); // reads this machine's store: no server, no license key
        if (!offline) this.server = requireServer(server);
        if (product == null || product.isBlank()) throw new UsageException("no product: use --product or KEYRIGHT_PRODUCT");
        if (offline) return;
        if (licenseKey == null || licenseKey.isBlank()) {
            throw new UsageException("no license key: use --key or KEYRIGHT_LICENSE_KEY");
        }
    }

    private static Duration borrowDuration(String text) throws UsageException {
        Duration duration = WaitBudget.parse(text, "borrow");
        if (duration.compareTo(SHORTEST_BORROW) < 0 || duration.compareTo(LONGEST_BORROW) > 0) {
            throw new UsageException("borrow takes 1h to 720h (30 days), not '" + text + "'");
        }
        return duration;
    }

    private void checkFingerprint() throws UsageException {
        if (fingerprint == null) return;
        if (!command.equals("activate") && !command.equals("status")) {
            throw new UsageException("--fingerprint is for activate and status");
        }
        if (!fingerprint.matches("[A-Za-z0-9._:-]{16,128}")) {
            throw new UsageException("--fingerprint must be 16..128 characters of [A-Za-z0-9._:-]");
        }
    }

    private static URI requireServer(String server) throws UsageException {
        if (server == null || server.isBlank()) throw new UsageException("no server: use --server or KEYRIGHT_SERVER");
        try {
            URI uri = new URI(server.trim());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) return uri;
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        throw new UsageException("--server must be an http:// or https:// URL, not '" + server + "'");
    }
}
