package dev.keyright.seats.problems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.idempotency.entity.IdempotencyKeyReusedException;
import dev.keyright.seats.leases.entity.LeaseExpiredException;
import dev.keyright.seats.leases.entity.LeaseNotFoundException;
import dev.keyright.seats.leases.entity.SeatsExhaustedException;
import dev.keyright.seats.licenses.entity.InvalidLicenseException;
import dev.keyright.seats.licenses.entity.LicenseNotFoundException;
import dev.keyright.seats.licenses.entity.LicenseSuspendedException;
import dev.keyright.seats.throttling.boundary.TooManyAttemptsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract's statuses and headers, from the one table, for every refusal the server makes. */
class ProblemTypesTest {

    @Test
    void everyRefusalHasTheContractsStatus() {
        Map<BusinessException, Integer> statuses = Map.ofEntries(
                Map.entry(new InvalidRequestException("body", "is wrong"), 400),
                Map.entry(new InvalidPathException(), 400),
                Map.entry(new InvalidLicenseException(), 401),
                Map.entry(new LicenseSuspendedException(), 403),
                Map.entry(new LicenseNotFoundException(), 404),
                Map.entry(new LeaseNotFoundException(), 404),
                Map.entry(SeatsExhaustedException.full(5, 5, 0, 40), 409),
                Map.entry(new LeaseExpiredException(), 410),
                Map.entry(new IdempotencyKeyReusedException(), 422),
                Map.entry(new TooManyAttemptsException(30), 429),
                Map.entry(new ServiceUnavailableException("busy", 1), 503),
                Map.entry(new dev.keyright.seats.leases.entity.BorrowingNotAllowedException(), 403),
                Map.entry(new dev.keyright.seats.licenses.entity.WrongLicenseModelException(
                        dev.keyright.seats.licenses.entity.OfflineUse.Model.NODE_LOCKED), 409),
                Map.entry(new dev.keyright.seats.activations.entity.ActivationsExhaustedException(3, 3), 409),
                Map.entry(new dev.keyright.seats.activations.entity.ActivationNotFoundException(), 404),
                Map.entry(new dev.keyright.seats.activations.entity.ActivationEndedException(), 410),
                Map.entry(new dev.keyright.seats.admins.entity.SignedOutException(), 401));
        statuses.forEach((refusal, status) -> assertEquals(status, refusal.status(), refusal.type()));
        assertEquals(Map.of("WWW-Authenticate", "License realm=\"keyright\""), new InvalidLicenseException().headers());
        assertEquals(Map.of(), new LeaseExpiredException().headers());
        assertEquals(Map.of("Cache-Control", "no-store"), new dev.keyright.seats.admins.entity.SignedOutException().headers(),
                "signing out answers without a challenge, so the browser asks for nothing");
    }

    @Test
    void aSlugOutsideTheTableIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProblemTypes.of("no-such-problem"));
    }
}
