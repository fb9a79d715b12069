package dev.keyright.seats.activations.boundary;

import dev.keyright.seats.activations.control.ActivationCertificates;
import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.activations.entity.ActivationsExhaustedException;
import dev.keyright.seats.database.Ids;
import dev.keyright.seats.database.QuietConflicts;
import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.CurrentKeys;
import dev.keyright.seats.leases.control.LicenseGate;
import dev.keyright.seats.licenses.entity.InvalidLicenseException;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import dev.keyright.seats.licenses.entity.OfflineUse;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.interceptor.Interceptors;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/**
 * The activation checkout, serialized per license exactly like the seat checkout: lock the license row first
 * (nothing is read before it), replay an answer stored under the Idempotency-Key, give a machine that is active
 * already its activation again (200), count the live activations and refuse the one too many (409), insert, write
 * the license row (Galera certifies the racing second writer away) and store the answer: one commit.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
@Interceptors(QuietConflicts.class)
public class ActivationCheckout {

    @PersistenceContext
    EntityManager em;
    @Inject
    CurrentKeys currentKeys;
    @EJB
    IdempotencyRecords records;
    @Inject
    LicenseGate gate;

    /** @return the answer, and whether it is a replay of one stored earlier */
    public Answer activate(String licenseId, ActivationRequest request, IdempotencyClaim claim, Instant now) {
        License license = gate.lock(licenseId, "activated");
        if (license == null) {
            throw new InvalidLicenseException();
        }
        java.util.Optional<StoredResponse> earlier = records.earlierAnswer(claim);
        if (earlier.isPresent()) {
            return new Answer(earlier.get(), true, false);
        }
        if (!license.isUsableAt(now)) {
            throw new LicenseSuspendedException();
        }
        license.require(OfflineUse.Model.NODE_LOCKED);
        int max = license.offline().maxActivations().orElse(0);
        long live = countLive(licenseId);
        Activation activation = em.createNamedQuery(Activation.FIND_LIVE_OF_MACHINE, Activation.class)
                .setParameter("licenseId", licenseId)
                .setParameter("fingerprint", request.fingerprint())
                .getResultStream().findFirst().orElse(null);
        boolean created = activation == null;
        if (created) {
            if (live >= max) {
                throw new ActivationsExhaustedException(live, max);
            }
            activation = new Activation(Ids.activation(), licenseId, request.fingerprint(), request.user(), request.host(), now);
            em.persist(activation);
            license.recordCheckout(now);
            live++;
        } else {
            activation.refresh(now);
        }
        ActivationCertificates.Certificate certificate =
                ActivationCertificates.issue(currentKeys.signer(), license, activation, now);
        StoredResponse response = new StoredResponse(created ? 201 : 200,
                created ? "/v1/activations/" + activation.id() : null, ActivationBody.json(activation, certificate, live, max));
        if (claim != null) {
            records.store(claim, request.fingerprint(), response, now);
        }
        return new Answer(response, false, claim != null);
    }

    /** The live activations of a license, counted now. */
    public long countLive(String licenseId) {
        return em.createNamedQuery(Activation.COUNT_LIVE, Long.class).setParameter("licenseId", licenseId).getSingleResult();
    }

    /**
     * An activation answer: 201 with its {@code Location}, 200, or what was stored under the key, replayed;
     * {@code stored} when this checkout stored it under an Idempotency-Key.
     */
    public record Answer(StoredResponse response, boolean replayed, boolean stored) {
    }
}
