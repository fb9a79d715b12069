package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.QuietConflicts;
import dev.keyright.seats.leases.control.CurrentKeys;
import dev.keyright.seats.leases.control.LeaseSigner;
import dev.keyright.seats.leases.control.SignatureProvider;
import dev.keyright.seats.leases.entity.SigningKeyRecord;
import dev.keyright.seats.secrets.ServerSecret;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptors;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.util.List;
import java.util.logging.Logger;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.lang.JoseException;

/**
 * The lease-signing key: created once, stored in the database (private part wrapped by the server
 * secret) where every node finds it, and the same after every restart. The first key's id is derived
 * from the server secret every node shares, so nodes first starting together on an empty database
 * insert the same primary key: one insert wins, the others fail on it, and their next load finds the
 * winner's key ({@code StartUp} loads again on exactly that failure). No start-up lock is taken.
 */
@Singleton
@Lock(LockType.READ)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class SigningKeys {

    private static final Logger LOG = Logger.getLogger(SigningKeys.class.getName());

    @PersistenceContext
    EntityManager em;
    @Inject
    KeyrightConfig config;
    @Inject
    ServerSecret secret;
    @Inject
    Clock clock;

    @Inject
    CurrentKeys current;

    private SignatureProvider provider;

    /** Loads the keys, creating the first one if there is none. Called once at start-up. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    @Interceptors(QuietConflicts.class) // a node that loses the first insert to another says so in one line (StartUp)
    @Lock(LockType.WRITE)
    public void load() {
        List<SigningKeyRecord> keys = all();
        if (keys.isEmpty()) {
            em.persist(generate(firstKid()));
            em.flush();
            keys = all();
            LOG.info("Created the lease-signing key " + keys.get(0).kid());
        }
        SigningKeyRecord active = keys.get(0);
        current.publish(new LeaseSigner(config.issuer(), active.kid(), provider.own(privateKey(active)), provider.name()),
                publish(keys));
    }

    @PostConstruct
    void open() {
        provider = SignatureProvider.install();
    }

    @PreDestroy
    void close() {
        provider.uninstall();
    }

    private List<SigningKeyRecord> all() {
        return em.createNamedQuery(SigningKeyRecord.FIND_ALL, SigningKeyRecord.class).getResultList();
    }

    /** The same on every node of an installation, and names nothing of the secret it is derived from. */
    private String firstKid() {
        return "k-" + java.util.HexFormat.of().formatHex(secret.mac("signing-key-id", "first".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .substring(0, 16);
    }

    private SigningKeyRecord generate(String kid) {
        try {
            EllipticCurveJsonWebKey jwk = EcJwkGenerator.generateJwk(EllipticCurves.P256);
            jwk.setKeyId(kid);
            jwk.setAlgorithm("ES256");
            jwk.setUse("sig");
            String publicJwk = jwk.toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
            String wrapped = secret.wrap(jwk.getPrivateKey().getEncoded());
            return new SigningKeyRecord(kid, "ES256", publicJwk, wrapped, clock.instant());
        } catch (JoseException e) {
            throw new IllegalStateException("Cannot generate a P-256 key", e);
        }
    }

    private PrivateKey privateKey(SigningKeyRecord record) {
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(secret.unwrap(record.wrappedPrivateKey())));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("The stored signing key is not a valid EC key", e);
        }
    }

    private static String publish(List<SigningKeyRecord> keys) {
        try {
            JsonWebKeySet set = new JsonWebKeySet();
            for (SigningKeyRecord key : keys) {
                set.addJsonWebKey(JsonWebKey.Factory.newJwk(key.publicJwk()));
            }
            return set.toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
        } catch (JoseException e) {
            throw new IllegalStateException("A stored public key is not a valid JWK", e);
        }
    }
}
