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
 * that, and a seat taken from a line with nobody else in it clears it. The line is read as values, and what changes
 * in it is written by statements of its own.
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
        assertEquals(List.of("persist", QueueEntry.PLACES_OF_LICENSE), calls);
    }

    @Test
    void aSeatTakenFromALineWithNobodyElseInItClearsTheRow() {
        license.noteWaiters(true);
        queue.em = database(List.<Object[]>of(entry(first, 1)));

        queue.seated(license, queue.lineFor(license, NOW), first.clientInstanceId());

        assertFalse(license.mayHaveWaiters(), "the next checkouts skip the read");
        assertEquals(List.of(QueueEntry.PLACES_OF_LICENSE, QueueEntry.DELETE_BY_IDS), calls);
    }

    @Test
    void aSeatTakenWhileAnotherInstallWaitsKeepsTheRowSaying() {
        license.noteWaiters(true);
        queue.em = database(List.<Object[]>of(entry(first, 1), entry(second, 2)));

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

    @Test
    void theLineIsReadAsValuesAndWhatChangesInItIsWrittenByStatementsOfItsOwn() {
        license.noteWaiters(true);
        Instant keptUntilNow = NOW.minus(queue.config.queueKeep()).plusSeconds(1);
        Instant gone = NOW.minus(queue.config.queueKeep()).minusSeconds(1);
        queue.em = database(List.<Object[]>of(entry(first, 1, keptUntilNow), entry(second, 2, gone),
                entry(new Holder("inst-3", null, null), 3, gone)));

        SeatQueue.Line line = queue.line(license.id(), NOW, java.util.Set.of(first.clientInstanceId()));

        assertEquals(1, line.size(), "the two that stopped waiting left the line");
        assertEquals(NOW, line.entries().get(0).lastSeenAt(), "the held install's place is kept as of now");
        assertEquals(3, line.lastTicket());
        assertEquals(List.of(QueueEntry.PLACES_OF_LICENSE, QueueEntry.SEEN, QueueEntry.DELETE_BY_IDS), calls,
                "one statement keeps the place, one deletes both that left: no entity of the line is managed");
        assertEquals(List.of(List.of("q-2", "q-3")), deleted);
    }

    private static Object[] entry(Holder holder, long ticket) {
        return entry(holder, ticket, NOW);
    }

    private static Object[] entry(Holder holder, long ticket, Instant lastSeenAt) {
        return new Object[]{"q-" + ticket, holder.clientInstanceId(), holder.user(), holder.host(), ticket,
                lastSeenAt.toEpochMilli()};
    }

    private final List<Object> deleted = new ArrayList<>();

    /** An EntityManager whose line query answers {@code line}, recording the queries asked and the writes made. */
    @SuppressWarnings("unchecked")
    private EntityManager database(List<Object[]> line) {
        TypedQuery<Object[]> query = (TypedQuery<Object[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{TypedQuery.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "setParameter" -> {
                        if ("ids".equals(args[0])) {
                            deleted.add(args[1]);
                        }
                        yield proxy;
                    }
                    case "getResultList" -> line;
                    case "executeUpdate" -> 1;
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
