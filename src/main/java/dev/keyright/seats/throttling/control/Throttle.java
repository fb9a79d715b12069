package dev.keyright.seats.throttling.control;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.configuration.Networks;
import java.time.Instant;
import java.util.OptionalInt;

/**
 * One guessing throttle: the rule for telling a caller's address, and failure ledgers that decide
 * whether the caller waits or is refused. Failures are counted per (address, bucket), where the bucket is
 * what the caller was trying to open (a product's license keys, the admin credentials), so one product's
 * misconfigured install behind an office's NAT address does not lock out that office's installs of other
 * products; and per address over all buckets, with a limit {@value #ADDRESS_FACTOR} times higher, so
 * inventing buckets buys a guesser nothing. Addresses in the operator's trusted networks
 * ({@code KEYRIGHT_AUTH_TRUSTED_NETWORKS}) are counted against their own, higher limits.
 */
public final class Throttle {

    static final int ADDRESS_FACTOR = 5;
    private static final int MAX_REMEMBERED = 100_000;

    private final ClientAddresses addresses;
    private final Networks trustedNetworks;
    private final Tier normal;
    private final Tier trusted;
    private final Pause pause;

    Throttle(ClientAddresses addresses, Networks trustedNetworks, Tier normal, Tier trusted, Pause pause) {
        this.addresses = addresses;
        this.trustedNetworks = trustedNetworks;
        this.normal = normal;
        this.trusted = trusted;
        this.pause = pause;
    }

    /** The configured limits ({@code KEYRIGHT_AUTH_*}); a slowed caller's thread is parked. */
    public static Throttle configured(KeyrightConfig config) {
        return configured(config, Pause.PARK);
    }

    /** The configured limits, slowing callers through {@code pause} (a test's records the delays). */
    public static Throttle configured(KeyrightConfig config, Pause pause) {
        return new Throttle(new ClientAddresses(config.trustedProxies()), config.authTrustedNetworks(),
                Tier.of(config.authSlowAfter(), config.authFailureLimit(), config),
                Tier.of(config.authTrustedSlowAfter(), config.authTrustedFailureLimit(), config), pause);
    }

    /** The caller's address: the peer, or the nearest untrusted hop of X-Forwarded-For behind trusted proxies. */
    public String addressOf(String remoteAddress, String forwardedFor) {
        return addresses.of(remoteAddress, forwardedFor);
    }

    /**
     * Before an attempt on {@code bucket}: the seconds to tell a refused caller to wait (Retry-After), or
     * empty to go on; a caller close to the limit is slowed here first.
     */
    public OptionalInt admit(String address, String bucket, Instant now) {
        Tier tier = tierOf(address);
        FailureLedger.Verdict overall = tier.perAddress().verdict(address, now);
        if (overall.kind() == FailureLedger.Verdict.Kind.REFUSE) {
            return OptionalInt.of(overall.retryAfterSeconds());
        }
        FailureLedger.Verdict verdict = tier.perBucket().verdict(key(address, bucket), now);
        if (verdict.kind() == FailureLedger.Verdict.Kind.REFUSE) {
            return OptionalInt.of(verdict.retryAfterSeconds());
        }
        if (verdict.kind() == FailureLedger.Verdict.Kind.SLOW) {
            pause.pause(verdict.delay());
        }
        return OptionalInt.empty();
    }

    /** An attempt from this address on this bucket failed. */
    public void failed(String address, String bucket, Instant now) {
        Tier tier = tierOf(address);
        tier.perBucket().recordFailure(key(address, bucket), now);
        tier.perAddress().recordFailure(address, now);
    }

    private Tier tierOf(String address) {
        return trustedNetworks.contains(address) ? trusted : normal;
    }

    private static String key(String address, String bucket) {
        return address + " " + bucket;
    }

    /** The ledgers of one kind of address: per (address, bucket), and per address with no slow-down. */
    record Tier(FailureLedger perBucket, FailureLedger perAddress) {
        static Tier of(int slowAfter, int refuseAt, KeyrightConfig config) {
            int addressLimit = (int) Math.min(Integer.MAX_VALUE, (long) refuseAt * ADDRESS_FACTOR);
            return new Tier(new FailureLedger(slowAfter, refuseAt, config.authFailureWindow(), MAX_REMEMBERED),
                    new FailureLedger(addressLimit, addressLimit, config.authFailureWindow(), MAX_REMEMBERED));
        }
    }
}
