package dev.keyright.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * Builds a {@link KeyrightClient}; {@code server}, {@code product} and {@code licenseKey} are required. Or builds
 * the {@link OfflineLicense} alone, for which the product is enough.
 */
public final class KeyrightClientBuilder {

    /** The directory under which each product's offline store lives, instead of {@code ~/.keyright}. */
    public static final String HOME_VARIABLE = "KEYRIGHT_HOME";
    private static final Pattern PRODUCT = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private URI server;
    private String product;
    private String licenseKey;
    private String clientInstanceId;
    private Path clientInstanceIdFile;
    private Map<String, String> environment = System.getenv();
    private Map<String, String> metadata = Map.of();
    private HttpClient httpClient;
    private Transport transport;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration requestTimeout = Duration.ofSeconds(10);
    private PublicKey publicKey;
    private String issuer;
    private Ticker ticker = Ticker.system();
    private Sleeper sleeper = Sleeper.system();
    private Scheduler scheduler;
    private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();
    private int acquireAttempts = 3;
    private Duration queueHold = SeatWait.DEFAULT_HOLD;
    private Path offlineStore;
    private Clock clock = Clock.systemUTC();
    private String machineFingerprint;

    KeyrightClientBuilder() {
    }

    /** The server's base URI, e.g. {@code https://licensing.example.com}. */
    public KeyrightClientBuilder server(URI server) { this.server = server; return this; }
    public KeyrightClientBuilder server(String server) { return server(URI.create(server)); }
    public KeyrightClientBuilder product(String product) { this.product = product; return this; }
    public KeyrightClientBuilder licenseKey(String licenseKey) { this.licenseKey = licenseKey; return this; }

    /** This install's id; by default {@link ClientInstanceId#resolve}: the environment, else a persisted one. */
    public KeyrightClientBuilder clientInstanceId(String id) { this.clientInstanceId = id; return this; }
    /** Where to keep a generated client instance id instead of the user's config directory. */
    public KeyrightClientBuilder clientInstanceIdFile(Path file) { this.clientInstanceIdFile = file; return this; }
    /** The environment to read {@code KEYRIGHT_CLIENT_INSTANCE_ID} and config directories from. */
    public KeyrightClientBuilder environment(Map<String, String> env) { this.environment = Map.copyOf(env); return this; }
    /** Display labels sent with each acquire, e.g. {@code user} and {@code host} (256 chars at most each). */
    public KeyrightClientBuilder metadata(Map<String, String> metadata) { this.metadata = Map.copyOf(metadata); return this; }

    public KeyrightClientBuilder httpClient(HttpClient httpClient) { this.httpClient = httpClient; return this; }
    /** Replaces HTTP altogether (tests, proxies with custom auth); wins over {@link #httpClient}. */
    public KeyrightClientBuilder transport(Transport transport) { this.transport = transport; return this; }
    public KeyrightClientBuilder connectTimeout(Duration timeout) { this.connectTimeout = timeout; return this; }
    public KeyrightClientBuilder requestTimeout(Duration timeout) { this.requestTimeout = timeout; return this; }

    /** Verifies lease tokens with this embedded EC P-256 key instead of the server's JWKS. */
    public KeyrightClientBuilder verifyWith(PublicKey key) { this.publicKey = key; return this; }

    /** Like {@link #verifyWith(PublicKey)}, from a PEM {@code -----BEGIN PUBLIC KEY-----} block. */
    public KeyrightClientBuilder verifyWithPem(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
        try {
            return verifyWith(KeyFactory.getInstance("EC").generatePublic(
                    new X509EncodedKeySpec(Base64.getDecoder().decode(base64))));
        } catch (Exception e) {
            throw new IllegalArgumentException("Not a PEM-encoded EC public key", e);
        }
    }

    /** The {@code iss} lease tokens must carry (the server's {@code KEYRIGHT_ISSUER}); unchecked when unset. */
    public KeyrightClientBuilder issuer(String issuer) { this.issuer = issuer; return this; }

    public KeyrightClientBuilder ticker(Ticker ticker) { this.ticker = ticker; return this; }
    public KeyrightClientBuilder sleeper(Sleeper sleeper) { this.sleeper = sleeper; return this; }
    /** Runs keep-alives on this scheduler (never shut down by them); by default each has its own thread pool. */
    public KeyrightClientBuilder scheduler(Scheduler scheduler) { this.scheduler = scheduler; return this; }
    /** Uniform values in [0, 1) for jitter. */
    public KeyrightClientBuilder random(DoubleSupplier random) { this.random = random; return this; }
    /** Attempts of one acquire through transient failures (default 3). */
    public KeyrightClientBuilder acquireAttempts(int attempts) { this.acquireAttempts = attempts; return this; }
    /**
     * The longest time one waiting acquire asks the server to hold it in the queue ({@code Prefer: wait},
     * whole seconds, 1 s to 60 s, default 20 s). A wait longer than this is served by several holds; a killed
     * install keeps its place at most this long plus the server's queue keep.
     */
    public KeyrightClientBuilder queueHold(Duration hold) { this.queueHold = hold; return this; }

    /**
     * The directory of this product's offline store (borrowed seat, activation): by default
     * {@code $KEYRIGHT_HOME/<product>/} when the builder's environment sets {@code KEYRIGHT_HOME}, else
     * {@code ~/.keyright/<product>/}. The CLI and the app find the same store when they agree on this.
     */
    public KeyrightClientBuilder offlineStore(Path directory) { this.offlineStore = directory; return this; }
    /**
     * The wall clock of offline checks (default: the system's, UTC). Read only where no server can be asked: a
     * borrowed seat's and a certificate's expiry, the rollback rule, and when to refresh a certificate.
     */
    public KeyrightClientBuilder clock(Clock clock) { this.clock = clock; return this; }
    /**
     * This machine's fingerprint, for {@link KeyrightClient#activate()} and the offline check of activation
     * certificates; by default {@link MachineFingerprint#of(String)} of the product, read when first needed.
     */
    public KeyrightClientBuilder machineFingerprint(String fingerprint) { this.machineFingerprint = fingerprint; return this; }

    public KeyrightClient build() {
        if (server == null || !("http".equals(server.getScheme()) || "https".equals(server.getScheme()))) {
            throw new IllegalStateException("server must be an http or https URI");
        }
        require(product, "product");
        require(licenseKey, "licenseKey");
        if (acquireAttempts < 1) throw new IllegalStateException("acquireAttempts must be at least 1");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(queueHold, "queueHold");
        if (queueHold.compareTo(Duration.ofSeconds(1)) < 0 || queueHold.compareTo(SeatWait.LONGEST_HOLD) > 0) {
            throw new IllegalStateException("queueHold must be between 1 s and 60 s");
        }
        metadata.forEach((name, value) -> {
            if (value.length() > 256) throw new IllegalStateException("metadata " + name + " is over 256 characters");
        });
        OfflineLicense offline = buildOfflineLicense();
        SeatEndpoints endpoints = new SeatEndpoints(chooseTransport(), server, product, licenseKey, requestTimeout);
        PublicKey embedded = publicKey;
        VerificationKeyResolver keys = embedded != null ? (jws, nesting) -> embedded : new JwksKeys(endpoints::jwks);
        return new KeyrightClient(endpoints, new LeaseTokenVerifier(keys, product, issuer), product,
                chooseClientInstanceId(), metadata, ticker, sleeper, new Jitter(random), scheduler, acquireAttempts,
                queueHold, offline, clock);
    }

    /**
     * The offline half alone, which needs no server and no license key: {@code product}, and optionally
     * {@code offlineStore}, {@code clock}, {@code machineFingerprint}, {@code issuer} and an embedded key.
     */
    public OfflineLicense buildOfflineLicense() {
        require(product, "product");
        Objects.requireNonNull(clock, "clock");
        String chosen = machineFingerprint == null ? null : Activations.requireValidFingerprint(machineFingerprint);
        String forProduct = product;
        Supplier<String> fingerprint = chosen != null ? () -> chosen : once(() -> MachineFingerprint.of(forProduct));
        return new OfflineLicense(product, chooseOfflineStore(), clock, fingerprint, issuer, publicKey);
    }

    private Path chooseOfflineStore() {
        if (offlineStore != null) return offlineStore;
        if (!PRODUCT.matcher(product).matches() || product.equals(".") || product.equals("..")) {
            throw new IllegalStateException("product '" + product + "' cannot name a directory: set offlineStore");
        }
        String home = environment.get(HOME_VARIABLE);
        Path base = home != null && !home.isBlank() ? Paths.get(home.trim())
                : Paths.get(System.getProperty("user.home", "."), ".keyright");
        return base.resolve(product);
    }

    /** Reads the machine's identity once, when first needed: a client that never activates never runs {@code ioreg}. */
    private static Supplier<String> once(Supplier<String> source) {
        return new Supplier<>() {
            private String value;

            @Override
            public synchronized String get() {
                if (value == null) value = source.get();
                return value;
            }
        };
    }

    private Transport chooseTransport() {
        if (transport != null) return transport;
        HttpClient http = httpClient != null ? httpClient : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new HttpTransport(http);
    }

    private String chooseClientInstanceId() {
        if (clientInstanceId != null) return ClientInstanceId.requireValid(clientInstanceId, "clientInstanceId");
        String fromEnvironment = environment.get(ClientInstanceId.ENVIRONMENT_VARIABLE);
        if (clientInstanceIdFile != null && (fromEnvironment == null || fromEnvironment.isBlank())) {
            return ClientInstanceId.loadOrCreate(clientInstanceIdFile);
        }
        return ClientInstanceId.resolve(environment);
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) throw new IllegalStateException(name + " is required");
    }
}
