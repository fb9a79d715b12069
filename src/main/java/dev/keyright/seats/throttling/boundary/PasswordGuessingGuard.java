package dev.keyright.seats.throttling.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.throttling.control.ClientAddresses;
import dev.keyright.seats.throttling.control.FailureLedger;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Slows, then refuses, a client address that keeps presenting wrong admin credentials: the admin
 * counterpart of {@link KeyGuessingGuard}, with the same limits ({@code KEYRIGHT_AUTH_*}) and its own
 * per-node ledger. Called by the authentication mechanism, which runs before any filter or resource.
 * Besides guessing, it bounds the CPU an attacker can make the server spend on password hashing.
 */
@ApplicationScoped
public class PasswordGuessingGuard {

    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;

    private FailureLedger ledger;
    private ClientAddresses addresses;

    @PostConstruct
    void init() {
        ledger = FailureLedger.configured(config);
        addresses = new ClientAddresses(config.trustedProxies());
    }

    /** Before a credential is checked: the refusal to send, if any; slows the caller when it is close to one. */
    public Optional<TooManyAttemptsException> admit(HttpServletRequest request) {
        FailureLedger.Verdict verdict = ledger.verdict(addressOf(request), clock.instant());
        if (verdict.kind() == FailureLedger.Verdict.Kind.REFUSE) {
            return Optional.of(TooManyAttemptsException.adminCredentials(verdict.retryAfterSeconds()));
        }
        if (verdict.kind() == FailureLedger.Verdict.Kind.SLOW) {
            LockSupport.parkNanos(verdict.delay().toNanos());
        }
        return Optional.empty();
    }

    /** A credential was presented and was wrong. */
    public void failed(HttpServletRequest request) {
        ledger.recordFailure(addressOf(request), clock.instant());
    }

    private String addressOf(HttpServletRequest request) {
        return addresses.of(request.getRemoteAddr(), request.getHeader("X-Forwarded-For"));
    }
}
