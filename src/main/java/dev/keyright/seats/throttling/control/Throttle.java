package dev.keyright.seats.throttling.control;

import dev.keyright.seats.configuration.KeyrightConfig;
import java.time.Instant;
import java.util.OptionalInt;
import java.util.concurrent.locks.LockSupport;

/**
 * One guessing throttle: a {@link FailureLedger} with the configured {@code KEYRIGHT_AUTH_*} limits, the
 * rule for telling a caller's address, and what a verdict means for the caller (wait, or be refused).
 * The license-key guard and the admin-credential guard each hold their own.
 */
public final class Throttle {

    private final FailureLedger ledger;
    private final ClientAddresses addresses;

    Throttle(FailureLedger ledger, ClientAddresses addresses) {
        this.ledger = ledger;
        this.addresses = addresses;
    }

    /** The configured limits, remembering up to 100,000 addresses. */
    public static Throttle configured(KeyrightConfig config) {
        return new Throttle(new FailureLedger(config.authSlowAfter(), config.authFailureLimit(), config.authFailureWindow(), 100_000),
                new ClientAddresses(config.trustedProxies()));
    }

    /** The caller's address: the peer, or the nearest untrusted hop of X-Forwarded-For behind trusted proxies. */
    public String addressOf(String remoteAddress, String forwardedFor) {
        return addresses.of(remoteAddress, forwardedFor);
    }

    /**
     * Before an attempt: the seconds to tell a refused caller to wait (Retry-After), or empty to go on;
     * a caller close to the limit is slowed here first.
     */
    public OptionalInt admit(String address, Instant now) {
        FailureLedger.Verdict verdict = ledger.verdict(address, now);
        if (verdict.kind() == FailureLedger.Verdict.Kind.REFUSE) {
            return OptionalInt.of(verdict.retryAfterSeconds());
        }
        if (verdict.kind() == FailureLedger.Verdict.Kind.SLOW) {
            LockSupport.parkNanos(verdict.delay().toNanos());
        }
        return OptionalInt.empty();
    }

    /** An attempt from this address failed. */
    public void failed(String address, Instant now) {
        ledger.recordFailure(address, now);
    }
}
