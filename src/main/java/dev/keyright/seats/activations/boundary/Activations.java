package dev.keyright.seats.activations.boundary;

import dev.keyright.seats.activations.control.ActivationCertificates;
import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.activations.entity.ActivationEndedException;
import dev.keyright.seats.activations.entity.ActivationNotFoundException;
import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.database.DeadlockRetry;
import dev.keyright.seats.database.RowLocks;
import dev.keyright.seats.idempotency.boundary.IdempotencyClaims;
import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.leases.control.CurrentKeys;
import dev.keyright.seats.licenses.boundary.LicenseAuthentication;
import dev.keyright.seats.licenses.boundary.Licenses;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import dev.keyright.seats.licenses.entity.OfflineUse;
import dev.keyright.seats.problems.ServiceUnavailableException;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Node-locked activations: activate a machine (the checkout, in {@link ActivationCheckout}, so a deadlock can be
 * retried here outside the failed transaction), refresh its certificate, deactivate it, and an administrator's
 * revoke. An activation does not expire; only a deactivation or a revoke frees its slot, at once.
 */
@Stateless
public class Activations {

    @PersistenceContext
    EntityManager em;
    @EJB
    Licenses licenses;
    @Inject
    LicenseAuthentication authentication;
    @EJB
    ActivationCheckout checkout;
    @Inject
    CurrentKeys currentKeys;
    @Inject
    KeyrightConfig config;
    @Inject
    Clock clock;
    @EJB
    IdempotencyRecords records;

    /** Activate: 201 new, 200 the same machine's activation, 409 full, 503 when the license lock stays busy. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public ActivationCheckout.Answer activate(ActivationRequest request, IdempotencyClaims claims) {
        License license = authentication.authenticate(request.product(), request.licenseKey());
        license.require(OfflineUse.Model.NODE_LOCKED);
        Instant now = clock.instant();
        Supplier<ServiceUnavailableException> busy = () -> ServiceUnavailableException.licenseBusy("activated");
        IdempotencyClaim claim = claims.claimFor(license.id());
        ActivationCheckout.Answer answer = DeadlockRetry.run(config.deadlockRetries(),
                () -> checkout.activate(license.id(), request, claim, now), busy);
        if (answer.stored()) {
            records.keepWithinBounds(claim, request.fingerprint()); // committed, unlocked
        }
        return answer;
    }

    /** A new certificate for a live activation: 200; 410 when it ended, 404 when it never existed for this license. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public String refresh(String licenseKey, String activationId) {
        License license = nodeLocked(licenseKey);
        Instant now = clock.instant();
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        Activation activation = live(em.find(Activation.class, activationId), license.id());
        activation.refresh(now);
        ActivationCertificates.Certificate certificate =
                ActivationCertificates.issue(currentKeys.signer(), license, activation, now);
        return ActivationBody.json(activation, certificate, checkout.countLive(license.id()),
                license.offline().maxActivations().orElse(0));
    }

    /** The machine gives its slot back: free at once. 410/404 as for {@link #refresh}. */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void deactivate(String licenseKey, String activationId) {
        License license = nodeLocked(licenseKey);
        Activation activation = live(RowLocks.lock(em, Activation.LOCK, Activation.class, activationId), license.id());
        activation.end(Activation.Ending.DEACTIVATED, clock.instant());
    }

    /**
     * An administrator frees a machine's slot now; its next refresh is 410. A machine that is offline keeps its
     * certificate until the certificate's {@code exp}: a signed certificate cannot be recalled.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void revoke(String licenseId, String activationId) {
        licenses.get(licenseId);
        Activation activation = RowLocks.lock(em, Activation.LOCK, Activation.class, activationId);
        if (activation == null || !activation.belongsTo(licenseId) || !activation.isLive()) {
            throw new ActivationNotFoundException();
        }
        activation.end(Activation.Ending.REVOKED, clock.instant());
    }

    /** The live activations of these licenses, oldest first, read with one query (the admin views). */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, List<Activation>> liveOf(List<String> licenseIds) {
        if (licenseIds.isEmpty()) {
            return Map.of();
        }
        return em.createNamedQuery(Activation.FIND_LIVE_OF_LICENSES, Activation.class)
                .setParameter("licenseIds", licenseIds)
                .getResultStream()
                .collect(Collectors.groupingBy(Activation::licenseId, java.util.LinkedHashMap::new, Collectors.toList()));
    }

    /** How many live activations each of these licenses has, counted with one query (monitoring); none: absent. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, Long> countLiveOf(List<String> licenseIds) {
        if (licenseIds.isEmpty()) {
            return Map.of();
        }
        return em.createNamedQuery(Activation.COUNT_LIVE_OF_LICENSES, Object[].class)
                .setParameter("licenseIds", licenseIds)
                .getResultStream()
                .collect(Collectors.toMap(row -> (String) row[0], row -> ((Number) row[1]).longValue()));
    }

    private License nodeLocked(String licenseKey) {
        License license = authentication.authenticate(null, licenseKey);
        license.require(OfflineUse.Model.NODE_LOCKED);
        return license;
    }

    private static Activation live(Activation activation, String licenseId) {
        if (activation == null || !activation.belongsTo(licenseId)) {
            throw new ActivationNotFoundException();
        }
        if (!activation.isLive()) {
            throw new ActivationEndedException();
        }
        return activation;
    }
}
