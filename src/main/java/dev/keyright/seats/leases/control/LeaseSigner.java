package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.licenses.entity.License;
import java.security.PrivateKey;
import java.time.Instant;
import org.jose4j.jca.ProviderContext;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/** Signs lease tokens: compact ES256 JWS, {@code typ: lease+jwt}, with the claims of the wire contract. */
public final class LeaseSigner {

    public static final String TOKEN_TYPE = "lease+jwt";

    private final String issuer;
    private final String kid;
    private final PrivateKey key;
    private final ProviderContext provider = new ProviderContext();

    public LeaseSigner(String issuer, String kid, PrivateKey key) {
        this(issuer, kid, key, java.util.Optional.empty());
    }

    /** @param providerName the JCA provider that signs ({@link SignatureProvider}); empty: the JDK's default */
    public LeaseSigner(String issuer, String kid, PrivateKey key, java.util.Optional<String> providerName) {
        this.issuer = issuer;
        this.kid = kid;
        this.key = key;
        providerName.ifPresent(name -> provider.getSuppliedKeyProviderContext().setSignatureProvider(name));
    }

    public String sign(LeaseClaims lease) {
        JwtClaims claims = new JwtClaims();
        claims.setAudience(lease.product());
        claims.setSubject(lease.holderLabel());
        claims.setClaim("lid", lease.leaseId());
        claims.setClaim("lic", lease.licenseId());
        claims.setClaim("cid", lease.clientInstanceId());
        claims.setIssuedAt(NumericDate.fromSeconds(lease.issuedAt().getEpochSecond()));
        claims.setExpirationTime(NumericDate.fromSeconds(lease.expiresAt().getEpochSecond()));
        if (lease.overdraft()) {
            claims.setClaim("ovr", true);
        }
        if (lease.borrowed()) {
            claims.setClaim("bor", true);
        }
        return sign(TOKEN_TYPE, claims);
    }

    /**
     * Signs {@code claims} as a compact ES256 JWS of type {@code type} with this node's current key, adding this
     * server as the issuer: the one place a token of any kind (lease, activation certificate) is signed.
     */
    public String sign(String type, JwtClaims claims) {
        claims.setIssuer(issuer);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
        jws.setKeyIdHeaderValue(kid);
        jws.setHeader("typ", type);
        jws.setKey(key);
        jws.setProviderContext(provider);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("Cannot sign a " + type + " token", e);
        }
    }

    public String kid() {
        return kid;
    }

    /** What a lease token says. {@code expiresAt} is exactly the lease's stored expiry. */
    public record LeaseClaims(String product, String holderLabel, String leaseId, String licenseId,
                              String clientInstanceId, Instant issuedAt, Instant expiresAt, boolean overdraft,
                              boolean borrowed) {

        /** The claims of a lease of a license, issued now. */
        public static LeaseClaims of(License license, Lease lease, Instant now) {
            return new LeaseClaims(license.product(), lease.holder().label(), lease.id(), license.id(),
                    lease.holder().clientInstanceId(), now, lease.expiresAt(), lease.overdraft(), lease.isBorrowed());
        }
    }
}
