package dev.keyright.seats.activations.control;

import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.licenses.entity.License;
import java.time.Duration;
import java.time.Instant;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

/**
 * The activation certificate: an ES256 JWS of type {@code activation+jwt}, signed with the keys that sign lease
 * tokens (so the published JWKS verifies both, offline). Its {@code exp} bounds how long the machine may run
 * without reaching the server ({@code offlineDays}); the activation itself does not expire.
 */
public final class ActivationCertificates {

    public static final String TYPE = "activation+jwt";
    /** The longest a machine goes between background refreshes, however many days it may run offline. */
    static final Duration MAX_REVALIDATE_INTERVAL = Duration.ofHours(24);

    private ActivationCertificates() {
    }

    /** A certificate for {@code activation} of {@code license}, issued at {@code now} (whole seconds). */
    public static Certificate issue(LeaseSigner signer, License license, Activation activation, Instant now) {
        Instant issuedAt = Instant.ofEpochSecond(now.getEpochSecond());
        Instant expiresAt = issuedAt.plus(license.offline().offlinePeriod());
        JwtClaims claims = new JwtClaims();
        claims.setAudience(license.product());
        claims.setSubject(activation.fingerprint());
        claims.setClaim("aid", activation.id());
        claims.setClaim("lic", license.id());
        claims.setIssuedAt(NumericDate.fromSeconds(issuedAt.getEpochSecond()));
        claims.setExpirationTime(NumericDate.fromSeconds(expiresAt.getEpochSecond()));
        return new Certificate(signer.sign(TYPE, claims), issuedAt, expiresAt, revalidateAfter(issuedAt, license));
    }

    /** When the machine should refresh: a third of its offline allowance on, at most a day on. */
    static Instant revalidateAfter(Instant issuedAt, License license) {
        Duration third = license.offline().offlinePeriod().dividedBy(3);
        return issuedAt.plus(third.compareTo(MAX_REVALIDATE_INTERVAL) < 0 ? third : MAX_REVALIDATE_INTERVAL);
    }

    /** A signed certificate and the times it carries. */
    public record Certificate(String jws, Instant issuedAt, Instant expiresAt, Instant revalidateAfter) {
    }
}
