package dev.keyright.seats.configuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The operator's settings, read once from environment variables (or system properties of the same
 * name) and validated together, so a bad value stops the start-up with one clear message.
 */
public final class KeyrightConfig {


    private final Path dataDir;
    private final String adminUser;
    private final Optional<String> adminPassword;
    private final String issuer;
    private final Duration reapInterval;
    private final Duration reapGrace;
    private final int reapBatchSize;
    private final int defaultTtlSeconds;
    private final int defaultSkewSeconds;
    private final boolean externalDatabaseRequested;
    private final Optional<String> keySecret;
    private final int deadlockRetries;
    private final Duration eventRetention;
    private final int authSlowAfter;
    private final int authFailureLimit;
    private final Duration authFailureWindow;
    private final java.util.Set<String> trustedProxies;
    private final Networks authTrustedNetworks;
    private final int authTrustedSlowAfter;
    private final int authTrustedFailureLimit;
    private final Duration bodyTimeout;
    private final int idempotencyRecordsPerInstall;
    private final int idempotencyRecordsPerLicense;
    private final Duration queueKeep;

    /** The largest {@code KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL} accepted. */
    public static final int MAX_IDEMPOTENCY_RECORDS_PER_INSTALL = 1_000;

    private KeyrightConfig(Reader in) {
        this.dataDir = Path.of(in.text("KEYRIGHT_DATA_DIR", "./keyright-data")).toAbsolutePath().normalize();
        this.adminUser = in.text("KEYRIGHT_ADMIN_USER", "admin");
        this.adminPassword = in.optional("KEYRIGHT_ADMIN_PASSWORD");
        this.issuer = in.text("KEYRIGHT_ISSUER", "keyright-seats");
        this.reapInterval = Duration.ofSeconds(in.integer("KEYRIGHT_REAP_INTERVAL_SECONDS", 30, 1, 86_400));
        this.reapGrace = Duration.ofSeconds(in.integer("KEYRIGHT_REAP_GRACE_SECONDS", 15, 1, 86_400));
        this.reapBatchSize = in.integer("KEYRIGHT_REAP_BATCH_SIZE", 500, 1, 100_000);
        this.defaultTtlSeconds = in.integer("KEYRIGHT_DEFAULT_TTL_SECONDS", 120, 0, Integer.MAX_VALUE);
        this.defaultSkewSeconds = in.integer("KEYRIGHT_DEFAULT_SKEW_SECONDS", 5, 0, Integer.MAX_VALUE);
        this.externalDatabaseRequested = in.optional("KEYRIGHT_DB_URL").isPresent();
        this.keySecret = in.optional("KEYRIGHT_KEY_SECRET");
        this.deadlockRetries = in.integer("KEYRIGHT_DEADLOCK_RETRIES", 5, 0, 50);
        this.eventRetention = Duration.ofDays(in.integer("KEYRIGHT_EVENT_RETENTION_DAYS", 400, 1, 36_500));
        this.authSlowAfter = in.integer("KEYRIGHT_AUTH_SLOWDOWN_AFTER", 5, 0, 1_000_000);
        this.authFailureLimit = in.integer("KEYRIGHT_AUTH_FAILURE_LIMIT", 20, 1, 1_000_000);
        this.authFailureWindow = Duration.ofSeconds(in.integer("KEYRIGHT_AUTH_FAILURE_WINDOW_SECONDS", 300, 1, 86_400));
        this.trustedProxies = java.util.Arrays.stream(in.text("KEYRIGHT_TRUSTED_PROXIES", "").split(","))
                .map(String::trim)
                .filter(p -> !p.isBlank()).collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.authTrustedNetworks = in.networks("KEYRIGHT_AUTH_TRUSTED_NETWORKS");
        this.authTrustedSlowAfter = in.integer("KEYRIGHT_AUTH_TRUSTED_SLOWDOWN_AFTER", 100, 0, 1_000_000);
        this.authTrustedFailureLimit = in.integer("KEYRIGHT_AUTH_TRUSTED_FAILURE_LIMIT", 400, 1, 1_000_000);
        if (authTrustedSlowAfter >= authTrustedFailureLimit) {
            in.problems.add("KEYRIGHT_AUTH_TRUSTED_SLOWDOWN_AFTER must be below KEYRIGHT_AUTH_TRUSTED_FAILURE_LIMIT");
        }
        this.bodyTimeout = Duration.ofSeconds(in.integer("KEYRIGHT_BODY_TIMEOUT_SECONDS", 5, 1, 120));
        this.idempotencyRecordsPerInstall = in.integer("KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL", 8, 1,
                MAX_IDEMPOTENCY_RECORDS_PER_INSTALL);
        this.idempotencyRecordsPerLicense = in.integer("KEYRIGHT_IDEMPOTENCY_RECORDS_PER_LICENSE", 1_000, 1, 1_000_000);
        this.queueKeep = Duration.ofSeconds(in.integer("KEYRIGHT_QUEUE_KEEP_SECONDS", 10, 1, 3_600));
        if (authSlowAfter >= authFailureLimit) {
            in.problems.add("KEYRIGHT_AUTH_SLOWDOWN_AFTER must be below KEYRIGHT_AUTH_FAILURE_LIMIT");
        }
        if (adminUser.isBlank() || adminUser.length() > 64) {
            in.problems.add("KEYRIGHT_ADMIN_USER must be 1 to 64 characters");
        }
        adminPassword.filter(p -> p.length() < 8)
                .ifPresent(p -> in.problems.add("KEYRIGHT_ADMIN_PASSWORD must be at least 8 characters"));
        keySecret.filter(s -> s.length() < 32)
                .ifPresent(s -> in.problems.add("KEYRIGHT_KEY_SECRET must be at least 32 characters"));
        if (reapGrace.toSeconds() <= defaultSkewSeconds) {
            in.problems.add("KEYRIGHT_REAP_GRACE_SECONDS (" + reapGrace.toSeconds()
                    + ") must exceed KEYRIGHT_DEFAULT_SKEW_SECONDS (" + defaultSkewSeconds
                    + "): the reaper may only delete leases that are dead past the skew allowance");
        }
        if (!in.problems.isEmpty()) {
            throw new ConfigurationException(String.join("; ", in.problems));
        }
    }

    /** Reads the settings; throws {@link ConfigurationException} naming every bad value. */
    public static KeyrightConfig read(UnaryOperator<String> lookup) {
        return new KeyrightConfig(new Reader(lookup));
    }

    /**
     * The settings of this deployment: environment first, then a system property of the same name, read
     * once (the CDI producer, the data source selector and the embedded data source, which the container
     * creates outside CDI, all get this one instance). A bad value is reported again to each caller.
     */
    public static KeyrightConfig fromEnvironment() {
        KeyrightConfig config = environment;
        if (config == null) {
            synchronized (KeyrightConfig.class) {
                if (environment == null) {
                    environment = read(name -> {
                        String value = System.getenv(name);
                        return value != null ? value : System.getProperty(name);
                    });
                }
                config = environment;
            }
        }
        return config;
    }

    private static volatile KeyrightConfig environment;

    public Path dataDir() { return dataDir; }
    public String adminUser() { return adminUser; }
    public Optional<String> adminPassword() { return adminPassword; }
    public String issuer() { return issuer; }
    public Duration reapInterval() { return reapInterval; }
    public Duration reapGrace() { return reapGrace; }
    public int reapBatchSize() { return reapBatchSize; }
    public int defaultTtlSeconds() { return defaultTtlSeconds; }
    public int defaultSkewSeconds() { return defaultSkewSeconds; }
    public boolean externalDatabaseRequested() { return externalDatabaseRequested; }
    public Optional<String> keySecret() { return keySecret; }
    public int deadlockRetries() { return deadlockRetries; }
    public Duration eventRetention() { return eventRetention; }
    public int authSlowAfter() { return authSlowAfter; }
    public int authFailureLimit() { return authFailureLimit; }
    public Duration authFailureWindow() { return authFailureWindow; }
    public java.util.Set<String> trustedProxies() { return trustedProxies; }
    public Networks authTrustedNetworks() { return authTrustedNetworks; }
    public int authTrustedSlowAfter() { return authTrustedSlowAfter; }
    public int authTrustedFailureLimit() { return authTrustedFailureLimit; }
    public Duration bodyTimeout() { return bodyTimeout; }
    public int idempotencyRecordsPerInstall() { return idempotencyRecordsPerInstall; }
    public int idempotencyRecordsPerLicense() { return idempotencyRecordsPerLicense; }
    /** How long a waiting install keeps its place in a queue after the server last saw it asking. */
    public Duration queueKeep() { return queueKeep; }

    private static final class Reader {
        private final UnaryOperator<String> lookup;
        private final List<String> problems = new ArrayList<>();

        Reader(UnaryOperator<String> lookup) {
            this.lookup = lookup;
        }

        Optional<String> optional(String name) {
            return Optional.ofNullable(lookup.apply(name)).map(String::trim).filter(v -> !v.isEmpty());
        }

        Networks networks(String name) {
            try {
                return Networks.parse(text(name, ""));
            } catch (IllegalArgumentException e) {
                problems.add(name + ": " + e.getMessage());
                return Networks.none();
            }
        }

        String text(String name, String fallback) {
            return optional(name).orElse(fallback);
        }

        int integer(String name, int fallback, int min, int max) {
            Optional<String> raw = optional(name);
            if (raw.isEmpty()) {
                return fallback;
            }
            try {
                int value = Integer.parseInt(raw.get());
                if (value < min || value > max) {
                    problems.add(name + " must be between " + min + " and " + max + ", was " + value);
                    return fallback;
                }
                return value;
            } catch (NumberFormatException e) {
                problems.add(name + " must be a whole number, was '" + raw.get() + "'");
                return fallback;
            }
        }
    }
}
