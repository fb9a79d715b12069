package dev.keyright.client;

import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * The license as this machine holds it away from the server: a borrowed seat and a node-locked activation,
 * kept in the offline store and checked with no network at all. A {@link KeyrightClient} has one
 * ({@link KeyrightClient#checkBorrowedSeat()}, {@link KeyrightClient#checkActivation()}); a tool that has no
 * server or license key at hand builds one alone with {@link KeyrightClientBuilder#buildOfflineLicense()}.
 * <p>
 * The one rule of offline use: the signature verifies with the keys kept beside the token (or the key embedded
 * in the app), and the wall clock is at most the signed {@code exp} and not below
 * {@code max(lastSeen, iat)} by more than {@link #ROLLBACK_TOLERANCE}, where {@code lastSeen} is the latest time a
 * check passed at and {@code iat} the server's own clock when it signed. Each passing check moves
 * {@code lastSeen} forward. Thread-safe; several processes may share one store.
 */
public final class OfflineLicense {

    /**
     * How far the clock may stand below a time it already passed and still be believed: NTP and the OS step a
     * clock back by seconds, not minutes, and two minutes gained once (lastSeen never moves back) buy a
     * clock-setter nothing.
     */
    public static final Duration ROLLBACK_TOLERANCE = Duration.ofMinutes(2);

    private final String product;
    private final OfflineStore store;
    private final Clock clock;
    private final Supplier<String> machineFingerprint;
    private final String issuer;
    private final PublicKey embeddedKey;

    OfflineLicense(String product, Path directory, Clock clock, Supplier<String> machineFingerprint, String issuer,
                   PublicKey embeddedKey) {
        this.product = product;
        this.store = new OfflineStore(directory, product);
        this.clock = clock;
        this.machineFingerprint = machineFingerprint;
        this.issuer = issuer;
        this.embeddedKey = embeddedKey;
    }

    /**
     * Checks the borrowed seat offline: the stored lease token verifies ({@code typ: lease+jwt}, {@code aud} =
     * the product, {@code bor: true}, its lease id and {@code exp} those stored beside it) and the clock passes
     * the rule above. Moves {@code lastSeen} forward.
     *
     * @throws OfflineLicenseNotFoundException nothing is borrowed here
     * @throws OfflineLicenseExpiredException  the clock is past {@code borrowedUntil}
     * @throws ClockRolledBackException        the clock was set back
     * @throws OfflineLicenseInvalidException  the store does not verify (edited, or not readable)
     */
    public BorrowedSeat checkBorrowedSeat() {
        return store.update(state -> {
            OfflineState.Borrowed stored = state.borrowed().orElseThrow(() -> new OfflineLicenseNotFoundException(
                    "No seat of " + product + " is borrowed on this machine"));
            Optional<Instant> issuedAt = verifiedOffline(() ->
                    SignedClaims.verifyBorrowed(stored.seat(), keys(stored.jwks()), issuer));
            Instant now = admit(state, stored.seat().borrowedUntil(), issuedAt, "The borrowed seat of " + product);
            return new OfflineStore.Change<>(state.seenAt(now), stored.seat());
        });
    }

    /**
     * Checks the activation offline: the stored certificate verifies ({@code typ: activation+jwt}, {@code aud} =
     * the product, its {@code aid} and {@code exp} those stored beside it), its {@code sub} is this machine's
     * fingerprint, and the clock passes the rule above. Moves {@code lastSeen} forward.
     *
     * @throws OfflineLicenseNotFoundException the product is not activated here
     * @throws WrongMachineException           the certificate is another machine's
     * @throws OfflineLicenseExpiredException  the machine has been offline past the certificate's {@code exp}
     * @throws ClockRolledBackException        the clock was set back
     * @throws OfflineLicenseInvalidException  the store does not verify (edited, or not readable)
     */
    public Activation checkActivation() {
        return store.update(state -> {
            OfflineState.Activated stored = state.activated().orElseThrow(() -> new OfflineLicenseNotFoundException(
                    product + " is not activated on this machine"));
            Activation activation = stored.activation();
            Optional<Instant> issuedAt = verifiedOffline(() ->
                    SignedClaims.verifyActivation(activation, keys(stored.jwks()), product, issuer));
            if (!activation.fingerprint().equals(machineFingerprint.get())) {
                throw new WrongMachineException("The activation " + activation.activationId() + " of " + product
                        + " is for another machine (fingerprint " + activation.fingerprint() + ")");
            }
            Instant now = admit(state, activation.expiresAt(), issuedAt, "The activation certificate of " + product);
            return new OfflineStore.Change<>(state.seenAt(now), activation);
        });
    }

    /** The store's file ({@code offline.json}), for messages and support: it need not exist. */
    public Path storeFile() {
        return store.file();
    }

    /** What is stored, unverified: enough to return a seat or deactivate, which the server checks itself. */
    OfflineState stored() {
        return store.read();
    }

    /**
     * Keeps a seat just borrowed, after the same checks an offline check makes, so a seat this machine could not
     * use (its clock behind the server's, or past the end already) is refused while the server can still take it back.
     *
     * @throws LeaseVerificationException the token does not verify with the JWKS fetched for it
     */
    BorrowedSeat keepBorrowed(BorrowedSeat seat, String jwks) {
        OfflineState.Borrowed entry = new OfflineState.Borrowed(seat, jwks);
        return store.update(state -> {
            Optional<Instant> issuedAt = verifiedOnReceipt("The borrowed seat's token",
                    () -> SignedClaims.verifyBorrowed(seat, keys(jwks), issuer));
            Instant now = admit(state, seat.borrowedUntil(), issuedAt, "The borrowed seat of " + product);
            return new OfflineStore.Change<>(state.withBorrowed(entry).seenAt(now), seat);
        });
    }

    /**
     * Keeps a new or refreshed certificate, after the checks an offline check makes (but for the machine: the
     * caller activated with the fingerprint it chose). A refresh ({@code replacing} not null) keeps it only while
     * that activation is still the stored one, so a refresh racing a deactivation does not bring it back.
     */
    Activation keepActivation(Activation activation, String jwks, String replacing) {
        OfflineState.Activated entry = new OfflineState.Activated(activation, jwks);
        return store.update(state -> {
            if (replacing != null && !state.activated().map(a -> a.activation().activationId()).orElse("")
                    .equals(replacing)) {
                throw new OfflineLicenseNotFoundException(product + " is no longer activated on this machine");
            }
            Optional<Instant> issuedAt = verifiedOnReceipt("The activation certificate",
                    () -> SignedClaims.verifyActivation(activation, keys(jwks), product, issuer));
            Instant now = admit(state, activation.expiresAt(), issuedAt, "The activation certificate of " + product);
            return new OfflineStore.Change<>(state.withActivated(entry).seenAt(now), activation);
        });
    }

    /** Deletes the borrowed seat of {@code leaseId} (the file too when nothing else is kept). */
    void forgetBorrowed(String leaseId) {
        store.update(state -> new OfflineStore.Change<>(state.borrowed()
                .filter(b -> b.seat().leaseId().equals(leaseId)).isPresent() ? state.withBorrowed(null) : state, null));
    }

    /** Deletes the activation of {@code activationId} and its certificate (the file too when nothing else is kept). */
    void forgetActivation(String activationId) {
        store.update(state -> new OfflineStore.Change<>(state.activated()
                .filter(a -> a.activation().activationId().equals(activationId)).isPresent()
                ? state.withActivated(null) : state, null));
    }

    /** Whether the app embeds the server's key, so no JWKS needs fetching or keeping. */
    boolean embedsKey() {
        return embeddedKey != null;
    }

    String product() {
        return product;
    }

    String machineFingerprint() {
        return machineFingerprint.get();
    }

    /**
     * The clock half of the rule: licensed up to and including {@code expiresAt}, and not below the latest time
     * already passed ({@code lastSeen}, or the server's {@code iat}) by more than the tolerance.
     */
    private Instant admit(OfflineState state, Instant expiresAt, Optional<Instant> issuedAt, String what) {
        Instant now = clock.instant();
        if (now.isAfter(expiresAt)) {
            throw new OfflineLicenseExpiredException(what + " ran out at " + expiresAt + " (the clock shows " + now + ")",
                    expiresAt);
        }
        Instant floor = later(state.lastSeen().orElse(null), issuedAt.orElse(null));
        if (floor != null && now.isBefore(floor.minus(ROLLBACK_TOLERANCE))) {
            throw new ClockRolledBackException("This machine's clock shows " + now + ", before " + floor
                    + ", which it has already passed (at a check here, or on the license server's clock when it signed):"
                    + " the clock is set back or behind; set it right to use " + product + " offline", floor, now);
        }
        return now;
    }

    private VerificationKeyResolver keys(String jwks) throws SignedClaims.Refused {
        return SignedClaims.keys(embeddedKey, jwks);
    }

    private static Instant later(Instant a, Instant b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.isAfter(b) ? a : b;
    }

    /** A verification step whose refusal means the store was tampered with. */
    @FunctionalInterface
    private interface Step<T> {
        T run() throws SignedClaims.Refused;
    }

    private <T> T verifiedOffline(Step<T> step) {
        try {
            return step.run();
        } catch (SignedClaims.Refused e) {
            throw new OfflineLicenseInvalidException("The offline store " + store.file() + " of " + product
                    + " does not verify: " + e.getMessage(), e);
        }
    }

    /** A verification step whose refusal means the server's answer cannot be trusted. */
    private static <T> T verifiedOnReceipt(String what, Step<T> step) {
        try {
            return step.run();
        } catch (SignedClaims.Refused e) {
            throw new LeaseVerificationException(what + " from the server failed verification: " + e.getMessage(), e);
        }
    }
}
