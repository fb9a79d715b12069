package dev.keyright.seats.leases.control;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The JCA provider that signs lease tokens. BouncyCastle signs an ES256 token in about 0.07 ms with its own key
 * object ({@link #own}) where the JDK's SunEC takes 0.5-0.8 ms on Java 17 (docs/BENCHMARK.md), and signing is what a renew costs most. jose4j names its
 * provider, so BouncyCastle is registered, last in the JVM's list (nothing that asks without a name changes),
 * and only if no provider of that name is there already; it is removed again when the application stops,
 * if it was this application that registered it. Where it cannot be had, the JDK's provider signs: same tokens,
 * slower. Tokens are standard ES256 either way and verify with any provider.
 */
public final class SignatureProvider {

    static final String BOUNCY_CASTLE = "BC";
    static final String BOUNCY_CASTLE_CLASS = "org.bouncycastle.jce.provider.BouncyCastleProvider";
    private static final Logger LOG = Logger.getLogger(SignatureProvider.class.getName());

    private final String name;
    private final boolean registeredHere;

    private SignatureProvider(String name, boolean registeredHere) {
        this.name = name;
        this.registeredHere = registeredHere;
    }

    /** BouncyCastle if it can sign ES256 here, else the JDK's default. */
    public static SignatureProvider install() {
        if (Security.getProvider(BOUNCY_CASTLE) != null) {
            return usable(BOUNCY_CASTLE, false);
        }
        try {
            // By name, not `new`: a class that names BouncyCastle's type fails to load (bytecode verification
            // resolves it) where BouncyCastle is missing, and the fallback below would never run.
            Provider bouncyCastle = (Provider) Class.forName(BOUNCY_CASTLE_CLASS, true, SignatureProvider.class.getClassLoader())
                    .getDeclaredConstructor().newInstance();
            boolean added = Security.addProvider(bouncyCastle) != -1;
            return usable(bouncyCastle.getName(), added);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.info("Lease tokens are signed by the JDK's provider: BouncyCastle is not available (" + e + ")");
            return jdkDefault();
        }
    }

    /** No provider of this application's own: the JDK's default signs. */
    static SignatureProvider jdkDefault() {
        return new SignatureProvider(null, false);
    }

    private static SignatureProvider usable(String name, boolean registeredHere) {
        try {
            Signature.getInstance("SHA256withECDSA", name);
            return new SignatureProvider(name, registeredHere);
        } catch (GeneralSecurityException e) {
            LOG.info("Lease tokens are signed by the JDK's provider: " + name + " cannot sign ES256 (" + e + ")");
            if (registeredHere) {
                Security.removeProvider(name);
            }
            return jdkDefault();
        }
    }

    /** The provider's name for jose4j; empty means the JDK's default. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * The signing key as this provider's own key object, converted once. Handed a JDK key, BouncyCastle converts it
     * at every signature, and with it the curve's base point, whose multiplication tables it then builds again each
     * time: 0.22 ms a signature, against 0.07 ms with its own key (Java 17 here, docs/BENCHMARK.md). The JDK's
     * default provider gets the key as it is, and so does any provider that cannot convert it.
     */
    public PrivateKey own(PrivateKey key) {
        if (name == null) {
            return key;
        }
        try {
            return (PrivateKey) KeyFactory.getInstance(key.getAlgorithm(), name).translateKey(key);
        } catch (GeneralSecurityException | ClassCastException e) {
            LOG.info("The lease-signing key stays the JDK's own (" + name + " cannot convert it: " + e + "); signing is slower");
            return key;
        }
    }

    /** Removes the provider if this application registered it (an undeployed WAR must leave nothing behind). */
    public void uninstall() {
        if (registeredHere) {
            Security.removeProvider(name);
        }
    }
}
