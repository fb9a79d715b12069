package dev.keyright.seats.leases.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.idempotency.boundary.IdempotencyRecords;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.StoredResponse;
import dev.keyright.seats.leases.control.History;
import dev.keyright.seats.leases.control.HostLimit;
import dev.keyright.seats.leases.control.InstallBlocks;
import dev.keyright.seats.leases.control.KnownLeases;
import dev.keyright.seats.leases.control.LicenseGate;
import dev.keyright.seats.leases.control.LiveLeases;
import dev.keyright.seats.leases.control.SeatQueue;
import dev.keyright.seats.leases.control.SeatShare;
import dev.keyright.seats.leases.control.UserLimit;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.Lease;
import dev.keyright.seats.leases.entity.SeatsExhaustedException;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Which statements a checkout makes under the license lock: the quick pass grants a new seat without looking
 * for an earlier answer or the install's lease (their unique keys stand guard at the insert), and whatever it
 * does not grant is decided by every step of the careful pass, which looks for both first.
 */
class CheckoutTest {

    private static final Instant NOW = Instant.parse("2026-12-06T13:00:00Z");
    private static final String EARLIER_ANSWER = "earlier answer";
    private static final String COUNT = "count";

    private final License license = new License("lic_1", "acme", "hash", new Policy(5, 120, 5), null, null, NOW);
    private final Holder holder = new Holder("inst-1", null, null);
    private final IdempotencyClaim claim = new IdempotencyClaim("lic_1", "k-1", "fingerprint");
    private final Checkout.PreparedLease prepared = new Checkout.PreparedLease("lease_1", NOW, NOW.plusSeconds(120), "token");
    private final List<String> calls = new ArrayList<>();
    private final Checkout checkout = new Checkout();
    private long live;
    private StoredResponse earlier;

    CheckoutTest() {
        checkout.em = database();
        checkout.gate = new LicenseGate() {
            @Override
            public License lock(String licenseId, String notDone) {
                calls.add("lock");
                return license;
            }
        };
        checkout.records = new IdempotencyRecords() {
            @Override
            public Optional<StoredResponse> earlierAnswer(IdempotencyClaim claim) {
                calls.add(EARLIER_ANSWER);
                return Optional.ofNullable(earlier);
            }

            @Override
            public void store(IdempotencyClaim claim, String clientInstanceId, StoredResponse response, Instant now) {
                calls.add("store answer");
            }
        };
        checkout.liveLeases = new LiveLeases() {
            @Override
            public long count(License license, Instant now) {
                calls.add(COUNT);
                return live;
            }

            @Override
            public Optional<Instant> firstPossibleExpiry(License license, Instant now) {
                return Optional.empty();
            }
        };
        checkout.history = new History() {
            @Override
            public void granted(Lease lease, Instant at) {
                calls.add("history");
            }
        };
        checkout.queue = new SeatQueue() {
            @Override
            public void leave(Line line, String clientInstanceId) {
                assertEquals(0, line.size(), "nobody waits: the license row says so, and the line was not read");
            }
        };
        checkout.blocks = new InstallBlocks();
        checkout.userLimit = new UserLimit();
        checkout.hostLimit = new HostLimit();
        checkout.seatShare = new SeatShare();
        checkout.knownLeases = new KnownLeases();
    }

    @Test
    void theQuickPassGrantsANewSeatWithoutLookingForAnEarlierAnswerOrTheInstallsLease() {
        Grant grant = checkout(Checkout.Pass.QUICK);

        assertEquals(Grant.Kind.NEW, grant.kind());
        assertEquals(List.of("lock", COUNT, "persist Lease", "history", "store answer"), calls);
    }

    @Test
    void theCarefulPassLooksForBothBeforeItCounts() {
        Grant grant = checkout(Checkout.Pass.CAREFUL);

        assertEquals(Grant.Kind.NEW, grant.kind());
        assertEquals(List.of("lock", EARLIER_ANSWER, Lease.FIND_BY_INSTALL, COUNT, "persist Lease", "history",
                "store answer"), calls);
    }

    @Test
    void whatTheQuickPassDoesNotGrantTheCarefulPassDecidesAndAnEarlierAnswerComesFirst() {
        live = 5; // full: an answer stored under this key is still replayed, as if nothing had changed since
        earlier = new StoredResponse(201, "/v1/leases/lease_0", "{\"leaseId\":\"lease_0\"}");

        Grant grant = checkout(Checkout.Pass.QUICK);

        assertEquals(Grant.Kind.REPLAY, grant.kind());
        assertEquals(earlier, grant.replayed());
        assertEquals(List.of("lock", COUNT, EARLIER_ANSWER), calls, "nothing written");
    }

    @Test
    void aFullLicenseIsRefusedOnlyAfterTheCarefulPassFoundNeitherAnAnswerNorALeaseAndIsCountedOnce() {
        live = 5;

        assertThrows(SeatsExhaustedException.class, () -> checkout(Checkout.Pass.QUICK));
        assertEquals(List.of("lock", COUNT, EARLIER_ANSWER, Lease.FIND_BY_INSTALL), calls,
                "the careful pass refuses with the quick pass's count");
    }

    private Grant checkout(Checkout.Pass pass) {
        return checkout.checkout(license.id(), holder, prepared, claim,
                grant -> new StoredResponse(201, "/v1/leases/" + grant.leaseId(), grant.body()), false, pass);
    }

    /** An EntityManager that finds no lease of the install and records what is asked of it. */
    @SuppressWarnings("unchecked")
    private EntityManager database() {
        TypedQuery<Lease> none = (TypedQuery<Lease>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{TypedQuery.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setParameter" -> proxy;
                    case "getResultStream" -> Stream.empty();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{EntityManager.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "createNamedQuery" -> {
                        calls.add((String) args[0]);
                        yield none;
                    }
                    case "persist" -> {
                        calls.add("persist " + args[0].getClass().getSimpleName());
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
