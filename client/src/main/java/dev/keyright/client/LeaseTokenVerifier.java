package dev.keyright.client;

import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.VerificationKeyResolver;

/**
 * Checks a lease token on receipt: ES256 only (no {@code none}, no HMAC with the public key as a
 * secret, nothing else), header {@code typ: lease+jwt}, a key the server publishes (or the one the
 * vendor embedded), {@code aud} = the product, {@code iss} when one is configured, {@code lid} = the
 * lease id of the response, and an {@code exp} claim.
 * <p>
 * {@code exp} is required but not compared with the wall clock: the client does not trust its own
 * clock; how long a lease may be used is decided by the monotonic deadline counted from receipt.
 */
final class LeaseTokenVerifier {

    /** Disables jose4j's wall-clock checks of exp, nbf and iat. */
    private static final int WALL_CLOCK_NOT_TRUSTED = Integer.MAX_VALUE;

    private final JwtConsumer consumer;

    LeaseTokenVerifier(VerificationKeyResolver keys, String product, String issuer) {
        JwtConsumerBuilder builder = new JwtConsumerBuilder()
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                        AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256)
                .setExpectedType(true, "lease+jwt")
                .setVerificationKeyResolver(keys)
                .setExpectedAudience(product)
                .setRequireExpirationTime()
                .setAllowedClockSkewInSeconds(WALL_CLOCK_NOT_TRUSTED);
        if (issuer != null) builder.setExpectedIssuer(issuer);
        this.consumer = builder.build();
    }

    /** Verifies {@code token} as the token of lease {@code leaseId}. */
    void verify(String token, String leaseId) {
        try {
            JwtClaims claims = consumer.processToClaims(token);
            String lid = claims.getStringClaimValue("lid");
            if (!leaseId.equals(lid)) {
                throw new LeaseVerificationException("Lease token is for lease " + lid + ", not " + leaseId, null);
            }
        } catch (InvalidJwtException | MalformedClaimException e) {
            throw new LeaseVerificationException("Lease token refused: " + e.getMessage(), e);
        }
    }
}
