package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.QueueEntry;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.Policy;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A checkout reads a license's line only while the license row says someone may be waiting; joining the line sets
 * that, and a seat taken from a line with nobody else in it clears it.
 */
class SeatQueueTest {

    private static final Instant NOW = Instant.parse("2026-12-06T09:00:00Z");

    private final License license = new License("lic_1", "acme", "hash", new Policy(5, 120, 5), null, null, NOW);
    private final Holder first = new Holder("inst-1", null, null);
    private final Holder second = new Holder("inst-2", null, null);
    private final List<String> calls = new ArrayList<>();
    private final SeatQueue queue = new SeatQueue();

    SeatQueueTest() {
        queue.config = KeyrightConfig.read(Map.<String, String>of()::get);
    }

    @Test
    void aLicenseWhoseRowSaysNobodyWaitsIsNotRead() {
        queue.em = database(List.of());

        SeatQueue.Line line = queue.lineFor(license, NOW);

        assertEquals(0, line.size());
        assertEquals(List.of(), calls, "no statement under the license lock");
    }

    @Test
    void joiningTheLineTellsTheLicenseRowAndTheNextCheckoutReadsIt() {
        queue.em = database(List.of());

        assertEquals(1, queue.keepPlace(license, queue.lineFor(license, NOW), first, NOW));

        assertTrue(license.mayHaveWaiters());
        assertEquals(List.of("persist"), calls);
        queue.lineFor(license, NOW);
        assertEquals(List.of("persist", QueueEntry.FIND_OF_LICENSE), calls);
    }

    @Test
    void aSeatTakenFromALineWithNobodyElseInItClearsTheRow() {
        license.noteWaiters(true);
        queue.em = database(List.of(entry(first, 1)));

        queue.seated(license, queue.lineFor(license, NOW), first.clientInstanceId());

        assertFalse(license.mayHaveWaiters(), "the next checkouts skip the read");
        assertEquals(List.of(QueueEntry.FIND_OF_LICENSE, "remove"), calls);
    }

    @Test
    void aSeatTakenWhileAnotherInstallWaitsKeepsTheRowSaying() {
        license.noteWaiters(true);
        queue.em = database(List.of(entry(first, 1), entry(second, 2)));

        queue.seated(license, queue.lineFor(license, NOW), first.clientInstanceId());

        assertTrue(license.mayHaveWaiters());
    }

    @Test
    void aSeatTakenFromAnEmptyLineLeavesAClearRowClear() {
        queue.em = database(List.of());

        queue.seated(license, queue.lineFor(license, NOW), first.clientInstanceId());

        assertFalse(license.mayHaveWaiters());
        assertEquals(List.of(), calls);
    }

    private static QueueEntry entry(Holder holder, long ticket) {
        return new QueueEntry("q-" + ticket, "lic_1", holder, ticket, NOW);
    }

    /** An EntityManager whose line query answers {@code line}, recording the queries asked and the writes made. */
    @SuppressWarnings("unchecked")
    private EntityManager database(List<QueueEntry> line) {
        TypedQuery<QueueEntry> query = (TypedQuery<QueueEntry>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{TypedQuery.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setParameter" -> proxy;
                    case "getResultList" -> line;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{EntityManager.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "createNamedQuery" -> {
                        calls.add((String) args[0]);
                        yield query;
                    }
                    case "persist", "remove" -> {
                        calls.add(method.getName());
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
