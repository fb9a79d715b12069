package dev.keyright.client;

import java.security.PublicKey;
import java.time.Instant;
import java.util.Optional;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * Verifies what the server signs for use away from it, a borrowed lease token or an activation certificate,
 * with the keys kept beside it: ES256 only, the expected {@code typ}, {@code aud} = the product, {@code iss}
 * when one is configured, and an {@code exp}. The wall clock is not consulted here: what {@code exp} means
 * offline is {@link OfflineLicense}'s rule, with its rollback check, and it needs its own exceptions.
 */
final class SignedClaims {

    static final String LEASE_TYPE = "lease+jwt";
    static final String ACTIVATION_TYPE = "activation+jwt";
    /** Disables jose4j's own wall-clock checks of exp, nbf and iat. */
    private static final int WALL_CLOCK_CHECKED_ELSEWHERE = Integer.MAX_VALUE;

    /** Why a signed license was refused; the caller turns it into the exception that fits where it was met. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private SignedClaims() {
    }

    /**
     * The keys to verify with: the one the vendor embedded in the app (a stored JWKS is then not trusted at all,
     * so a user who re-signs the store with a key of his own gets nowhere), else the JWKS document kept with it.
     */
    static VerificationKeyResolver keys(PublicKey embedded, String jwks) throws Refused {
        if (embedded != null) return (jws, nesting) -> embedded;
        if (jwks == null) throw new Refused("no keys are kept with it (it was stored by an app with an embedded key)", null);
        return new JwksKeys(() -> jwks);
    }

    /**
     * Verifies a borrowed seat's token against the fields kept beside it: {@code typ: lease+jwt}, {@code aud} = its
     * product, {@code bor: true}, {@code lid} its lease id, {@code exp} its {@code borrowedUntil}. Answers its {@code iat}.
     */
    static Optional<Instant> verifyBorrowed(BorrowedSeat seat, VerificationKeyResolver keys, String issuer)
            throws Refused {
        JwtClaims claims = verify(seat.token(), LEASE_TYPE, keys, seat.product(), issuer);
        String lid = string(claims, "lid");
        require(seat.leaseId().equals(lid), "the token is for lease " + lid + ", not " + seat.leaseId());
        require(Boolean.TRUE.equals(claims.getClaimValue("bor")), "the token is not a borrowed one (no bor: true)");
        Instant exp = expiry(claims);
        require(exp.equals(seat.borrowedUntil()), "the token's exp " + exp + " is not borrowedUntil " + seat.borrowedUntil());
        return issuedAt(claims);
    }

    /**
     * Verifies an activation's certificate against the fields kept beside it: {@code typ: activation+jwt},
     * {@code aud} = the product, {@code aid} its id, {@code sub} its fingerprint, {@code exp} its {@code expiresAt}.
     * Whether the fingerprint is this machine's is the caller's question. Answers its {@code iat}.
     */
    static Optional<Instant> verifyActivation(Activation activation, VerificationKeyResolver keys, String product,
                                              String issuer) throws Refused {
        JwtClaims claims = verify(activation.certificate(), ACTIVATION_TYPE, keys, product, issuer);
        String aid = string(claims, "aid");
        require(activation.activationId().equals(aid),
                "the certificate is for activation " + aid + ", not " + activation.activationId());
        String sub = string(claims, "sub");
        require(activation.fingerprint().equals(sub),
                "the certificate is for fingerprint " + sub + ", not " + activation.fingerprint());
        Instant exp = expiry(claims);
        require(exp.equals(activation.expiresAt()),
                "the certificate's exp " + exp + " is not expiresAt " + activation.expiresAt());
        return issuedAt(claims);
    }

    static JwtClaims verify(String compact, String type, VerificationKeyResolver keys, String product, String issuer)
            throws Refused {
        JwtConsumerBuilder builder = new JwtConsumerBuilder()
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                        AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256)
                .setExpectedType(true, type)
                .setVerificationKeyResolver(keys)
                .setExpectedAudience(product)
                .setRequireExpirationTime()
                .setAllowedClockSkewInSeconds(WALL_CLOCK_CHECKED_ELSEWHERE);
        if (issuer != null) builder.setExpectedIssuer(issuer);
        try {
            return builder.build().processToClaims(compact);
        } catch (InvalidJwtException e) {
            throw new Refused(describe(e, type, product, issuer), e);
        }
    }

    /**
     * What was wrong, in a sentence a person can act on: jose4j's own message repeats the whole token and names
     * its exception classes.
     */
    private static String describe(InvalidJwtException e, String type, String product, String issuer) {
        if (e.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) return "its signature does not verify";
        if (e.hasErrorCode(ErrorCodes.TYPE_INVALID) || e.hasErrorCode(ErrorCodes.TYPE_MISSING)) {
            return "its typ is not " + type;
        }
        if (e.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || e.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
            return "its aud is not " + product;
        }
        if (e.hasErrorCode(ErrorCodes.ISSUER_INVALID) || e.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
            return "its iss is not " + issuer;
        }
        if (e.hasErrorCode(ErrorCodes.EXPIRATION_MISSING)) return "it has no exp";
        Throwable root = e;
        while (root.getCause() != null) root = root.getCause();
        String why = root == e ? null : root.getMessage();
        return why == null || why.contains("Exception") ? "it is not a well-formed ES256 JWS" : why;
    }

    static String string(JwtClaims claims, String name) throws Refused {
        try {
            return claims.getStringClaimValue(name);
        } catch (MalformedClaimException e) {
            throw new Refused("claim " + name + " is not a string", e);
        }
    }

    static Instant expiry(JwtClaims claims) throws Refused {
        try {
            return Instant.ofEpochSecond(claims.getExpirationTime().getValue());
        } catch (MalformedClaimException e) {
            throw new Refused("claim exp is not a number", e);
        }
    }

    /** {@code iat}: the server's clock when it signed; absent from a token that does not carry it. */
    static Optional<Instant> issuedAt(JwtClaims claims) throws Refused {
        try {
            NumericDate iat = claims.getIssuedAt();
            return iat == null ? Optional.empty() : Optional.of(Instant.ofEpochSecond(iat.getValue()));
        } catch (MalformedClaimException e) {
            throw new Refused("claim iat is not a number", e);
        }
    }

    static void require(boolean condition, String why) throws Refused {
        if (!condition) throw new Refused(why, null);
    }
}
