package dev.keyright.client;

import java.security.Key;
import java.time.Instant;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.lang.JoseException;

/** Signs lease tokens the way the server does (ES256, typ lease+jwt), or the ways an attacker might. */
final class TokenMint {

    final EllipticCurveJsonWebKey key;

    TokenMint(String kid) {
        try {
            key = EcJwkGenerator.generateJwk(EllipticCurves.P256);
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
        key.setKeyId(kid);
        key.setUse("sig");
        key.setAlgorithm(AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
    }

    static JwtClaims claims(String leaseId, String audience, String issuer, Instant expiresAt) {
        JwtClaims claims = new JwtClaims();
        if (issuer != null) claims.setIssuer(issuer);
        if (audience != null) claims.setAudience(audience);
        claims.setSubject("r.okafor@lab-ws-14");
        claims.setClaim("lid", leaseId);
        claims.setClaim("lic", "lic_1");
        claims.setClaim("cid", "inst-test");
        claims.setIssuedAt(NumericDate.fromSeconds(Instant.parse("2026-11-13T14:30:05Z").getEpochSecond()));
        if (expiresAt != null) claims.setExpirationTime(NumericDate.fromSeconds(expiresAt.getEpochSecond()));
        return claims;
    }

    /** As the server signs: ES256 with this key and kid, {@code typ: lease+jwt}. */
    String sign(JwtClaims claims) {
        return sign(claims, AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256, key.getPrivateKey(), "lease+jwt");
    }

    String sign(JwtClaims claims, String algorithm, Key signingKey, String type) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setAlgorithmHeaderValue(algorithm);
        jws.setAlgorithmConstraints(AlgorithmConstraints.NO_CONSTRAINTS);
        jws.setKeyIdHeaderValue(key.getKeyId());
        if (type != null) jws.setHeader("typ", type);
        jws.setKey(signingKey);
        jws.setDoKeyValidation(false);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }
}
