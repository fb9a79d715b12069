package dev.keyright.client;

import java.security.Key;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwx.JsonWebStructure;
import org.jose4j.keys.resolvers.VerificationKeyResolver;
import org.jose4j.lang.JoseException;
import org.jose4j.lang.UnresolvableKeyException;

/**
 * The server's published keys ({@code GET /.well-known/jwks.json}): fetched once and cached,
 * fetched again once when a token names a {@code kid} the cache does not hold (key rotation).
 */
final class JwksKeys implements VerificationKeyResolver {

    private final Supplier<String> fetch;
    private JsonWebKeySet cached;

    /** @param fetch returns the JWKS document; throws a {@link KeyrightException} when it cannot */
    JwksKeys(Supplier<String> fetch) {
        this.fetch = fetch;
    }

    @Override
    public synchronized Key resolveKey(JsonWebSignature jws, List<JsonWebStructure> nestingContext)
            throws UnresolvableKeyException {
        String kid = jws.getKeyIdHeaderValue();
        if (kid == null) throw new UnresolvableKeyException("Lease token has no kid");
        Optional<Key> key = cached == null ? Optional.empty() : find(kid);
        if (key.isEmpty()) {
            refresh();
            key = find(kid);
        }
        return key.orElseThrow(() -> new UnresolvableKeyException("No published ES256 key with kid " + kid));
    }

    private void refresh() throws UnresolvableKeyException {
        try {
            cached = new JsonWebKeySet(fetch.get());
        } catch (JoseException | KeyrightException e) {
            throw new UnresolvableKeyException("Cannot read the server's JWKS: " + e.getMessage(), e);
        }
    }

    private Optional<Key> find(String kid) {
        for (JsonWebKey jwk : cached.getJsonWebKeys()) {
            if (kid.equals(jwk.getKeyId()) && jwk instanceof EllipticCurveJsonWebKey
                    && (jwk.getUse() == null || "sig".equals(jwk.getUse()))
                    && (jwk.getAlgorithm() == null
                        || AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256.equals(jwk.getAlgorithm()))) {
                return Optional.of(((EllipticCurveJsonWebKey) jwk).getPublicKey());
            }
        }
        return Optional.empty();
    }
}
