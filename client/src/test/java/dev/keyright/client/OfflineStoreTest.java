package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline store's file: changes that overlap lose nothing, a check writes nothing, a broken file is refused. */
class OfflineStoreTest {

    private static final Instant UNTIL = Instant.parse("2026-12-04T20:00:00Z");
    private static final BorrowedSeat SEAT = new BorrowedSeat("acme-studio", "lease_1", UNTIL, "t.o.k");
    private static final Activation ACTIVATION = new Activation("act_1", "fingerprint-of-this-machine", UNTIL, UNTIL,
            1, 2, "c.e.r");

    @TempDir
    Path home;

    private OfflineStore store() {
        return new OfflineStore(home.resolve("acme-studio"), "acme-studio");
    }

    @Test
    void aChangeThatStartsWhileAnotherIsUnderWayWaitsForItAndLosesNothing() throws Exception {
        Files.createDirectories(store().file().getParent()); // so the first change runs under the lock
        CountDownLatch inFirst = new CountDownLatch(1);
        CountDownLatch finishFirst = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> store().update(state -> {
            inFirst.countDown();
            await(finishFirst);
            return new OfflineStore.Change<>(state.withBorrowed(new OfflineState.Borrowed(SEAT, null)), null);
        }));
        assertTrue(inFirst.await(10, TimeUnit.SECONDS));
        Thread second = new Thread(() -> store().update(state ->
                new OfflineStore.Change<>(state.withActivated(new OfflineState.Activated(ACTIVATION, null)), null)));
        second.start();
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (second.getState() != Thread.State.BLOCKED && second.getState() != Thread.State.TERMINATED) {
            if (System.nanoTime() > giveUp) throw new AssertionError("the second change neither waited nor ended");
            Thread.onSpinWait();
        }
        finishFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        second.join(10_000);

        OfflineState kept = store().read();
        assertEquals(SEAT, kept.borrowed().orElseThrow().seat(), "the first change was not written over");
        assertEquals(ACTIVATION, kept.activated().orElseThrow().activation());
    }

    @Test
    void aCheckOfNothingCreatesNoDirectory() {
        assertThrows(OfflineLicenseNotFoundException.class, () -> store().update(state -> {
            throw new OfflineLicenseNotFoundException("nothing borrowed");
        }));
        assertFalse(Files.exists(home.resolve("acme-studio")));
    }

    @Test
    void anUnreadableStoreIsRefusedAndLeftAsItIs() throws Exception {
        Path file = store().file();
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"format\": 1, \"product\": \"acme-studio\", \"borrowed\": {\"leaseId\": 7}}");

        OfflineLicenseInvalidException refused = assertThrows(OfflineLicenseInvalidException.class,
                () -> store().update(state -> new OfflineStore.Change<>(state.seenAt(UNTIL), null)));

        assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains("delete it"),
                refused.getMessage());
        assertEquals("{\"format\": 1, \"product\": \"acme-studio\", \"borrowed\": {\"leaseId\": 7}}",
                Files.readString(file));
    }

    @Test
    void removingTheLastEntryDeletesTheFile() {
        OfflineStore store = store();
        store.update(state -> new OfflineStore.Change<>(state.withBorrowed(new OfflineState.Borrowed(SEAT, null)), null));
        assertTrue(Files.exists(store.file()));

        store.update(state -> new OfflineStore.Change<>(state.withBorrowed(null), null));

        assertFalse(Files.exists(store.file()));
        assertTrue(store.read().isEmpty());
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) throw new AssertionError("never released");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
