package dev.keyright.seats.leases.control;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * What this node signs with and publishes, once the signing keys are loaded ({@code SigningKeys.load}, at
 * start-up): the signer of every token and the public keys as an RFC 7517 JWK set. Read on every acquire, renew and
 * {@code GET /.well-known/jwks.json}, so it is a plain bean: no EJB call (its interceptors, its transaction check
 * and its tracing hooks) for a field that changes only when the keys are loaded.
 */
@ApplicationScoped
public class CurrentKeys {

    private volatile Published published;

    /** Makes {@code signer} sign from now on and {@code jwks} the published key set. */
    public void publish(LeaseSigner signer, String jwks) {
        published = new Published(signer, jwks);
    }

    public LeaseSigner signer() {
        return loaded().signer();
    }

    /** The public keys as an RFC 7517 JWK set. */
    public String jwks() {
        return loaded().jwks();
    }

    private Published loaded() {
        Published now = published;
        if (now == null) {
            throw new IllegalStateException("The signing keys are not loaded yet");
        }
        return now;
    }

    private record Published(LeaseSigner signer, String jwks) {
    }
}
