package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.control.LicenseKeys;
import dev.keyright.seats.licenses.control.RecentLicenses;
import dev.keyright.seats.licenses.entity.InvalidLicenseException;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * The license a presented key opens. A plain bean, not an EJB: its callers are the client API's EJBs, and it
 * reads in theirs (their transaction when they have one), so a call costs no container hop (a JFR profile put
 * the EJB call around {@link #authenticateRecent} at 1.7 % of a renew). Unknown key, wrong product and missing
 * key all fail the same way ({@link InvalidLicenseException}, an application exception: the caller's
 * transaction is rolled back as before).
 */
@ApplicationScoped
public class LicenseAuthentication {

    @PersistenceContext
    EntityManager em;
    @Inject
    LicenseKeys keys;
    @Inject
    RecentLicenses recent;

    /**
     * The license a key opens, for the given product (or any product when {@code product} is null).
     * Unknown key, wrong product and missing key all fail the same way.
     */
    public License authenticate(String product, String presentedKey) {
        License license = byHash(hashOf(presentedKey));
        if (product != null && !product.equals(license.product())) {
            throw new InvalidLicenseException();
        }
        return license;
    }

    /**
     * The license a key opens, for a heartbeat or a release: this node's copy when it read it less than a second ago
     * ({@link RecentLicenses}: a change made on another node shows here up
     * to a second late), otherwise as {@link #authenticate}. A key that opens nothing is never remembered.
     */
    public License authenticateRecent(String presentedKey) {
        String hash = hashOf(presentedKey);
        long now = System.nanoTime();
        return recent.find(hash, now).orElseGet(() -> {
            License license = byHash(hash);
            recent.remember(hash, license, now);
            return license;
        });
    }

    /** The keyed hash of a presented key; a missing, blank or over-long key opens nothing (401). */
    private String hashOf(String presentedKey) {
        if (presentedKey == null || presentedKey.isBlank() || presentedKey.length() > LicenseKeys.MAX_LENGTH) {
            throw new InvalidLicenseException();
        }
        return keys.hash(presentedKey);
    }

    private License byHash(String hash) {
        return em.createNamedQuery(License.FIND_BY_KEY_HASH, License.class)
                .setParameter("keyHash", hash)
                .getResultStream().findFirst()
                .filter(found -> LicenseKeys.sameHash(hash, found.keyHash()))
                .orElseThrow(InvalidLicenseException::new);
    }
}
