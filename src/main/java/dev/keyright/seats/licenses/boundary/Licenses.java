package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.Ids;
import dev.keyright.seats.licenses.control.LicenseKeys;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseNotFoundException;
import dev.keyright.seats.licenses.entity.OfflineUse;
import dev.keyright.seats.licenses.entity.Policy;
import dev.keyright.seats.licenses.entity.Sharing;
import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** Licenses: issue them (with a one-time key), change their policy, replace their key ({@link LicenseAuthentication} checks a presented key). */
@Stateless
public class Licenses {

    @PersistenceContext
    EntityManager em;
    @Inject
    LicenseKeys keys;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @Inject
    jakarta.enterprise.event.Event<Issued> issued;
    @Inject
    dev.keyright.seats.licenses.control.RecentLicenses recent;

    public IssuedLicense issue(LicenseRequest request) {
        Policy policy = new Policy(request.seats(),
                request.ttlSeconds().orElse(config.defaultTtlSeconds()),
                request.skewSeconds().orElse(config.defaultSkewSeconds()));
        Sharing sharing = request.sharing().applyTo(Sharing.none());
        validate(policy, sharing, request.offline());
        String key = LicenseKeys.generate(request.product());
        License license = new License(Ids.license(), request.product(), keys.hash(key), policy,
                request.customer().orElse(null), request.notAfter().orElse(null), clock.instant());
        license.apply(sharing);
        license.apply(request.offline());
        em.persist(license);
        em.flush();
        issued.fire(new Issued(license));
        return new IssuedLicense(license, key);
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<License> all() {
        return em.createNamedQuery(License.FIND_ALL, License.class).getResultList();
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public long count() {
        return em.createNamedQuery(License.COUNT_ALL, Long.class).getSingleResult();
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<License> find(String licenseId) {
        return Optional.ofNullable(em.find(License.class, licenseId));
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public License get(String licenseId) {
        return find(licenseId).orElseThrow(LicenseNotFoundException::new);
    }

    /**
     * Lowering seats below the live count revokes nobody: new acquires wait until the pool drains. A changed
     * seat policy likewise applies to new checkouts only; nobody loses a held seat.
     */
    public License change(String licenseId, LicenseChange change) {
        License license = get(licenseId);
        Policy current = license.policy();
        Policy policy = new Policy(change.seats().orElse(current.seats()),
                change.ttlSeconds().orElse(current.ttlSeconds()),
                change.skewSeconds().orElse(current.skewSeconds()));
        Sharing sharing = change.sharing().applyTo(license.sharing());
        OfflineUse offline = change.applyTo(license.offline());
        validate(policy, sharing, offline);
        license.apply(policy);
        license.apply(sharing);
        license.apply(offline);
        change.status().ifPresent(license::changeStatus);
        recent.forgetAll();
        return license;
    }

    /**
     * Replaces a license's key (a leaked key): the old one opens nothing from the commit on (a heartbeat or a release
     * on another node may still pass with it for up to a second: {@link LicenseAuthentication#authenticateRecent}), so
     * installs still using it are refused at their next heartbeat and lose their seats when those expire. The
     * new key is returned this once and never stored.
     */
    public IssuedLicense replaceKey(String licenseId) {
        License license = get(licenseId);
        String key = LicenseKeys.generate(license.product());
        license.replaceKey(keys.hash(key));
        recent.forgetAll();
        java.util.logging.Logger.getLogger(Licenses.class.getName())
                .info(() -> "The key of license " + licenseId + " was replaced by an administrator");
        return new IssuedLicense(license, key);
    }

    private void validate(Policy policy, Sharing sharing, OfflineUse offline) {
        var problems = new java.util.ArrayList<>(policy.problems(Policy.maxSkewSeconds(config.reapGrace())));
        problems.addAll(sharing.problems(policy.seats()));
        problems.addAll(offline.problems());
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
    }

    /** CDI event: a license was issued (monitoring starts watching its pool). */
    public record Issued(License license) {
    }

    /** A license just issued, with its key: shown this once, never stored. */
    public record IssuedLicense(License license, String licenseKey) {
    }
}
