package dev.keyright.client.cli;

import dev.keyright.client.KeyrightClient;
import dev.keyright.client.KeyrightClientBuilder;
import dev.keyright.client.KeyrightException;
import dev.keyright.client.OfflineLicense;
import dev.keyright.client.SeatMetadata;
import dev.keyright.client.SeatsExhaustedException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The seat-wrapper CLI: {@code java -jar keyright-client.jar run --server URL --product P --key K -- COMMAND}. */
public final class Main {

    static final String USAGE = String.join("\n",
            "Usage: keyright-client COMMAND [OPTIONS]",
            "",
            "Commands:",
            "  run [OPTIONS] -- PROGRAM [ARGS...]  run PROGRAM while holding a seat; exit with its exit code",
            "  acquire [OPTIONS]                   take a seat and print its lease id (not kept alive)",
            "  renew LEASE_ID [OPTIONS]            renew a seat taken with 'acquire'",
            "  release LEASE_ID [OPTIONS]          give a seat back",
            "  pool [OPTIONS]                      show the seats in use",
            "  borrow DURATION [OPTIONS]           take a seat off the network for DURATION (whole hours, 1h to",
            "                                      720h: 8h, 2d), kept in this machine's offline store",
            "  return [OPTIONS]                    give the borrowed seat back early",
            "  activate [--fingerprint F]          activate this machine (a node-locked license)",
            "  deactivate [OPTIONS]                free this machine's activation",
            "  status [--fingerprint F]            what this machine holds offline, checked without the network:",
            "                                      the borrowed seat and until when, the activation",
            "  admin status                        every license: seats in use, queued, and who holds them",
            "  admin licenses                      one line per license",
            "  admin pool LICENSE_ID               a license's holders (lease ids, installs) and its queue",
            "  admin revoke LICENSE_ID LEASE_ID [--block DURATION]  free a seat now (and refuse that install)",
            "  admin usage LICENSE_ID [--from T] [--to T] [--bucket hour|day]  usage per hour or day",
            "                      admin commands need --server and KEYRIGHT_ADMIN_PASSWORD (or a prompt);",
            "                      KEYRIGHT_ADMIN_USER, default admin",
            "",
            "Options:",
            "  --server URL        the license server (or KEYRIGHT_SERVER)",
            "  --product NAME      the product (or KEYRIGHT_PRODUCT)",
            "  --key KEY           the license key (or KEYRIGHT_LICENSE_KEY, better: flags show in ps)",
            "  --wait DURATION     wait up to DURATION in the queue for a seat: 30s, 5m, 2h (default: do not wait)",
            "  --queue-hold DURATION  how long the server holds each queued request, 1s to 60s (default 20s,",
            "                      or KEYRIGHT_QUEUE_HOLD); a killed client keeps its place at most this + 10 s",
            "  --kill-on-loss      run: stop PROGRAM if the seat is lost, and exit 75",
            "  --json              JSON output on stdout, JSON lines of events on stderr",
            "  --issuer ISS        require this issuer in lease tokens",
            "  --public-key FILE   verify lease tokens with this PEM key instead of the server's JWKS",
            "  --fingerprint F     activate, status: this machine's fingerprint, 16..128 of [A-Za-z0-9._:-]",
            "                      (default: derived from the OS machine id and the product)",
            "  -h, --help          show this help",
            "",
            "Borrowed seats and activations are kept in $KEYRIGHT_HOME/PRODUCT/ (default ~/.keyright/PRODUCT/).",
            "",
            "Exit codes: 0 ok (run: PROGRAM's own code), 1 failure, 2 bad usage, 3 nothing held (release,",
            "  return, deactivate, status), 65 request refused, 69 no seat or activation free (or server",
            "  unreachable), 75 seat lost (--kill-on-loss), 76 lease token failed verification, 77 license",
            "  key refused, license suspended, or the license does not allow this (borrowing, its model),",
            "  78 install blocked, 79 an offline license failed its check (expired, clock set back, edited,",
            "  another machine's), 126 PROGRAM cannot be executed, 127 PROGRAM not found.",
            "");

    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;
    private final UnaryOperator<KeyrightClientBuilder> tuning;

    public Main(Map<String, String> environment, PrintStream out, PrintStream err) {
        this(environment, out, err, UnaryOperator.identity());
    }

    /** @param tuning adjusts the client before it is built (tests: fake time, a short queue hold) */
    public Main(Map<String, String> environment, PrintStream out, PrintStream err,
                UnaryOperator<KeyrightClientBuilder> tuning) {
        this.environment = environment;
        this.out = out;
        this.err = err;
        this.tuning = tuning;
    }

    public static void main(String[] args) {
        initialiseJose4jQuietly();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        System.exit(new Main(System.getenv(), out, err).run(args));
    }

    /**
     * jose4j logs through SLF4J, which prints a three-line warning on stderr at first use when no
     * SLF4J binding is on the class path. A CLI should not: SLF4J is initialised with stderr muted.
     */
    private static void initialiseJose4jQuietly() {
        PrintStream realErr = System.err;
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        try {
            Class.forName("org.jose4j.jwa.AlgorithmFactoryFactory", true, Main.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // verifying a lease will say what is missing
        } finally {
            System.setErr(realErr);
        }
    }

    /** Runs one command line and returns the exit code; never throws for an expected failure. */
    public int run(String... args) {
        CliOptions options;
        try {
            options = CliOptions.parse(args, environment);
        } catch (UsageException e) {
            return usage(e);
        }
        if (options.command.equals("help")) {
            out.print(USAGE);
            return ExitCodes.OK;
        }
        if (options.command.equals("admin")) {
            return new AdminCommand(options, environment, out, err).run();
        }
        Messages messages = new Messages(err, options.json);
        try {
            if (options.command.equals("status")) {
                return new StatusCommand(checkOffline(options), options, out).show();
            }
            KeyrightClient client = connect(options);
            AcquireCommand acquire = new AcquireCommand(client, options, messages, out);
            switch (options.command) {
                case "run": return new RunCommand(client, options, messages).run();
                case "acquire": return acquire.acquire();
                case "renew": return new RenewCommand(client, options, acquire).renew();
                case "release": return new ReleaseCommand(client, options, out).release();
                case "borrow": return new BorrowCommand(client, options, out).borrow();
                case "return": return new BorrowCommand(client, options, out).giveBack();
                case "activate": return new ActivationCommand(client, options, out).activate();
                case "deactivate": return new ActivationCommand(client, options, out).deactivate();
                default: return new PoolCommand(client, options, out).show();
            }
        } catch (UsageException e) {
            return usage(e);
        } catch (SeatsExhaustedException e) {
            if (options.wait.isZero()) messages.failed(e, options.product);
            else messages.gaveUp(e, options.wait);
            return ExitCodes.NO_SEAT;
        } catch (KeyrightException e) {
            messages.failed(e, options.product);
            return Failures.exitCode(e);
        } catch (RuntimeException e) {
            messages.error("unexpected failure: " + e);
            return ExitCodes.FAILURE;
        }
    }

    private KeyrightClient connect(CliOptions options) throws UsageException {
        KeyrightClientBuilder builder = configure(options);
        try {
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** {@code status}: the offline store alone, which needs neither the server nor the license key. */
    private OfflineLicense checkOffline(CliOptions options) throws UsageException {
        KeyrightClientBuilder builder = configure(options);
        try {
            return builder.buildOfflineLicense();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private KeyrightClientBuilder configure(CliOptions options) throws UsageException {
        KeyrightClientBuilder builder = KeyrightClient.builder()
                .server(options.server)
                .product(options.product)
                .licenseKey(options.licenseKey)
                .issuer(options.issuer)
                .environment(environment)
                .metadata(SeatMetadata.describeThisMachine(environment));
        if (options.queueHold != null) {
            builder.queueHold(options.queueHold);
        }
        if (options.fingerprint != null) {
            builder.machineFingerprint(options.fingerprint);
        }
        if (options.publicKey != null) {
            try {
                builder.verifyWithPem(Files.readString(options.publicKey));
            } catch (IOException | IllegalArgumentException e) {
                throw new UsageException("--public-key: cannot read an EC public key from " + options.publicKey);
            }
        }
        return tuning.apply(builder);
    }

    private int usage(UsageException e) {
        err.println("keyright-client: " + e.getMessage());
        err.println();
        err.print(USAGE);
        err.flush();
        return ExitCodes.USAGE;
    }
}
