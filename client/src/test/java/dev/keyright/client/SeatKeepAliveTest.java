package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The keep-alive's state machine, on fake time, a fake scheduler and an in-memory server. */
class SeatKeepAliveTest {

    private final ManualTime time = new ManualTime();
    private final FakeSeatService seats = new FakeSeatService();
    private final List<String> changes = Collections.synchronizedList(new ArrayList<>());
    private final List<KeyrightException> causes = Collections.synchronizedList(new ArrayList<>());

    private KeyrightClient client(DoubleSupplier random) {
        return KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeSeatService.ISSUER)
                .transport(seats).ticker(time).sleeper(time).scheduler(time).random(random).build();
    }

    /** The in-memory server, and once after its answer to the next call of {@code route}, {@code meanwhile}. */
    private Runnable meanwhile;
    private String meanwhileAfter;

    private KeyrightClient clientWithSomethingHappeningDuringACall() {
        Transport transport = request -> {
            Transport.Response answer = seats.send(request);
            String path = request.uri().getPath();
            if (meanwhile != null && path.endsWith(meanwhileAfter)) {
                Runnable now = meanwhile;
                meanwhile = null;
                now.run();
            }
            return answer;
        };
        return KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeSeatService.ISSUER)
                .transport(transport).ticker(time).sleeper(time).scheduler(time).random(() -> 0.5).build();
    }

    private SeatKeepAlive keepAlive(KeyrightClient client) {
        return client.keepAlive(client.acquireSeat(), (previous, current, cause) -> {
            changes.add(previous + "->" + current);
            if (cause != null) causes.add(cause);
        });
    }

    private long renewals() {
        synchronized (seats.calls) {
            return seats.calls.stream().filter(c -> c.startsWith("renew")).count();
        }
    }

    @Test
    void renewsAtRenewAfterAndStaysHeld() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));

        time.advance(Duration.ofSeconds(39));
        assertEquals(0, renewals());
        time.advance(Duration.ofSeconds(1));
        assertEquals(1, renewals());
        time.advance(Duration.ofMinutes(10));
        assertEquals(16, renewals(), "every 40 s");
        assertEquals(SeatState.HELD, seat.state());
        assertEquals(List.of(), changes);
    }

    @Test
    void jitterStaysWithinTenPercentOfRenewAfter() {
        for (double random : new double[] {0.0, 0.25, 0.5, 0.9999999}) {
            time.scheduledDelays.clear();
            keepAlive(client(() -> random)).close();
            Duration renewIn = time.scheduledDelays.get(1);
            long expectedNanos = Math.round(40e9 * (1 + 0.1 * (2 * random - 1)));
            assertEquals(expectedNanos, renewIn.toNanos(), "random " + random);
        }
        Jitter jitter = new Jitter(() -> ThreadLocalRandom.current().nextDouble());
        for (int i = 0; i < 10_000; i++) {
            Duration d = jitter.around(Duration.ofSeconds(40), SeatKeepAlive.RENEW_JITTER);
            assertTrue(d.compareTo(Duration.ofSeconds(36)) >= 0 && d.compareTo(Duration.ofSeconds(44)) <= 0, "" + d);
        }
    }

    @Test
    void aBlipShorterThanTheTtlKeepsTheSeat() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.down = true;

        time.advance(Duration.ofSeconds(40));
        assertEquals(SeatState.UNCERTAIN, seat.state());
        assertInstanceOf(TransientException.class, causes.get(0));
        time.advance(Duration.ofSeconds(30));
        assertEquals(SeatState.UNCERTAIN, seat.state(), "still within the lease: retrying");
        seats.down = false;
        time.advance(Duration.ofSeconds(10));

        assertEquals(SeatState.HELD, seat.state());
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->HELD"), changes);
        assertEquals("lease_1", seat.lease().leaseId());
    }

    @Test
    void aBlipLongerThanTheTtlLosesTheSeatAtTheLocalDeadline() {
        long acquiredAt = time.nanos();
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.down = true;

        time.advance(Duration.ofSeconds(120).minusMillis(1));
        assertEquals(SeatState.UNCERTAIN, seat.state());
        time.advance(Duration.ofMillis(1));

        assertEquals(SeatState.LOST, seat.state());
        assertEquals(Duration.ofSeconds(120), Duration.ofNanos(time.nanos() - acquiredAt));
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->LOST"), changes);
        long attempts = renewals();
        time.advance(Duration.ofMinutes(10));
        assertEquals(attempts, renewals(), "LOST is final: no more renewals");
        assertEquals(0, time.pendingTasks());
    }

    @Test
    void theDeadlineCountsFromTheLastSuccessfulRenewal() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        time.advance(Duration.ofSeconds(40));
        long renewedAt = time.nanos();
        seats.down = true;

        time.advance(Duration.ofSeconds(119));
        assertEquals(SeatState.UNCERTAIN, seat.state());
        time.advance(Duration.ofSeconds(1));
        assertEquals(SeatState.LOST, seat.state());
        assertEquals(Duration.ofSeconds(120), Duration.ofNanos(time.nanos() - renewedAt));
    }

    @Test
    void retriesSoonerThanTheNextRenewalButNotSoonerThanRetryAfter() {
        keepAlive(client(() -> 0.5));
        seats.answerNext("renew", FakeSeatService.problem(503, "service-unavailable", Map.of(), 7L));

        time.advance(Duration.ofSeconds(40));
        assertEquals(1, renewals());
        time.advance(Duration.ofSeconds(6));
        assertEquals(1, renewals());
        time.advance(Duration.ofSeconds(1));
        assertEquals(2, renewals());
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->HELD"), changes);
    }

    @Test
    void reacquiresUnderANewKeyWhenTheServerExpiredTheLease() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.expire("lease_1");

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.HELD, seat.state());
        assertEquals("lease_2", seat.lease().leaseId());
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->HELD"), changes);
        assertInstanceOf(LeaseExpiredException.class, causes.get(0));
        assertEquals(2, Set.copyOf(seats.idempotencyKeys).size(), "a fresh idempotency key for the re-acquire");
        time.advance(Duration.ofSeconds(40));
        assertEquals("renew lease_2", seats.calls.get(seats.calls.size() - 1));
    }

    @Test
    void reacquiresWhenTheServerNoLongerKnowsTheLease() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.answerNext("renew", FakeSeatService.problem(404, "lease-not-found", Map.of(), null));

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.HELD, seat.state());
        assertEquals(List.of("acquire", "renew lease_1", "acquire"), seats.calls);
    }

    @Test
    void aRevokeThatBlocksTheInstallLosesTheSeatAfterOneAcquireAndNeverAsksAgain() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.revokeAndBlock("lease_1", FakeSeatService.NOW.plusSeconds(3600));

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.LOST, seat.state());
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->LOST"), changes);
        InstallBlockedException blocked = assertInstanceOf(InstallBlockedException.class, causes.get(1));
        assertEquals(java.util.Optional.of(FakeSeatService.NOW.plusSeconds(3600)), blocked.blockedUntil());
        time.advance(Duration.ofMinutes(30));
        assertEquals(List.of("acquire", "renew lease_1", "acquire"), seats.calls, "one acquire after the revoke, then none");
    }

    @Test
    void losesTheSeatWhenTheReacquireFindsThePoolFull() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.expire("lease_1");
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-other");

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.LOST, seat.state());
        assertEquals(List.of("HELD->UNCERTAIN", "UNCERTAIN->LOST"), changes);
        assertInstanceOf(SeatsExhaustedException.class, causes.get(1));
    }

    @Test
    void losesTheSeatWhenARenewedTokenFailsVerification() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        TokenMint impostor = new TokenMint("key-1");
        seats.tokens = (leaseId, exp) -> impostor.sign(FakeSeatService.claimsFor(leaseId, exp));

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.LOST, seat.state());
        assertInstanceOf(LeaseVerificationException.class, causes.get(0));
        assertTrue(seats.calls.contains("release lease_1"));
    }

    @Test
    void closeReleasesAtOnceAndStopsRenewing() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        time.advance(Duration.ofSeconds(45));

        seat.close();
        seat.close();

        assertEquals(List.of("acquire", "renew lease_1", "release lease_1"), seats.calls);
        assertEquals(Set.of(), seats.liveLeases());
        time.advance(Duration.ofMinutes(10));
        assertEquals(1, renewals());
        assertEquals(List.of(), changes, "closing is not losing");
    }

    @Test
    void closeAfterLossStillTriesToRelease() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.down = true;
        time.advance(Duration.ofMinutes(3));
        assertEquals(SeatState.LOST, seat.state());
        seats.down = false;

        seat.close();

        assertTrue(seats.calls.contains("release lease_1"));
    }

    @Test
    void runsOnRealThreadsToo() throws Exception {
        KeyrightClient real = KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test").transport(seats).build();
        seats.ttlSeconds = 3;
        seats.renewAfterSeconds = 1;
        try (SeatKeepAlive seat = real.keepAlive(real.acquireSeat(), SeatStateListener.ignoring())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (renewals() < 1 && System.nanoTime() < deadline) Thread.sleep(10);
            assertTrue(renewals() >= 1, "renewed by the default scheduler");
            assertEquals(SeatState.HELD, seat.state());
        }
        assertTrue(seats.calls.contains("release lease_1"));
    }

    @Test
    void aHeldSeatKeepsOneRenewalAndOneDeadlineScheduledAndCloseOrLossLeavesNone() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        time.advance(Duration.ofMinutes(10));
        assertEquals(2, time.pendingTasks(), "the next renewal and the current lease's deadline, however long it is held");
        seat.close();
        assertEquals(0, time.pendingTasks(), "nothing left on the application's scheduler");

        SeatKeepAlive suspended = keepAlive(client(() -> 0.5));
        seats.answerNext("renew", FakeSeatService.problem(403, "license-suspended", Map.of(), null));
        time.advance(Duration.ofSeconds(40));
        assertEquals(SeatState.LOST, suspended.state());
        assertEquals(0, time.pendingTasks(), "a refused renewal cancels the deadline");
    }

    @Test
    void aSeatLostAtItsDeadlineCancelsThePendingRetry() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        seats.down = true;
        time.advance(Duration.ofSeconds(120));
        assertEquals(SeatState.LOST, seat.state());
        assertEquals(0, time.pendingTasks(), "the retry due at 125 s is cancelled at once");
    }

    @Test
    void inALongOutageRetriesBackOffFromOneToAtMostTenSeconds() {
        keepAlive(client(() -> 0.5));
        seats.down = true;
        time.advance(Duration.ofSeconds(39));
        time.scheduledDelays.clear();
        time.advance(Duration.ofSeconds(80));
        List<Duration> expected = new ArrayList<>(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(8)));
        expected.addAll(Collections.nCopies(7, Duration.ofSeconds(10)));
        assertEquals(expected, time.scheduledDelays, "failures at 40, 41, 43, 47, 55, 65 ... 115 s");
    }

    @Test
    void aRenewalThatOnlyGetsToRunAtTheLocalDeadlineLosesTheSeatInsteadOfRenewing() {
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        time.stall(Duration.ofSeconds(120)); // the process was frozen past the renewal, up to the lease's end
        time.advance(Duration.ZERO);

        assertEquals(SeatState.LOST, seat.state());
        assertEquals(0, renewals(), "a lease that ran out is not renewed, even if the server would still do it");
        assertEquals(List.of("HELD->LOST"), changes);
    }

    @Test
    void aDeadlineOrRenewalThatFiresDespiteItsCancellationDoesNothing() {
        time.cancelsComeTooLate = true;
        SeatKeepAlive seat = keepAlive(client(() -> 0.5));
        time.advance(Duration.ofMinutes(10));
        assertEquals(SeatState.HELD, seat.state(), "the first lease's deadline fired at 120 s, after its renewal");
        assertEquals(List.of(), changes);

        long renewals = renewals();
        seat.close();
        time.advance(Duration.ofMinutes(10));
        assertEquals(renewals, renewals(), "no renewal after close");
        assertEquals(List.of(), changes, "and no loss either");
    }

    @ParameterizedTest(name = "renewal answered {0}")
    @ValueSource(ints = {200, 503, 410, 403})
    void closingWhileARenewalIsInFlightEndsTheKeepAliveWhateverTheAnswer(int status) {
        KeyrightClient client = clientWithSomethingHappeningDuringACall();
        SeatKeepAlive seat = keepAlive(client);
        if (status == 503) seats.answerNext("renew", FakeSeatService.problem(503, "service-unavailable", Map.of(), null));
        if (status == 410) seats.answerNext("renew", FakeSeatService.problem(410, "lease-expired", Map.of(), null));
        if (status == 403) seats.answerNext("renew", FakeSeatService.problem(403, "license-suspended", Map.of(), null));
        meanwhileAfter = "/renew";
        meanwhile = seat::close;

        time.advance(Duration.ofMinutes(10));

        assertEquals(1, renewals(), "no renewal after close");
        assertEquals(1, seats.calls.stream().filter(c -> c.equals("acquire")).count(), "no re-acquire after close");
        assertEquals(List.of(), changes, "closing is not losing, and nothing changes after it");
        assertEquals(Set.of(), seats.liveLeases());
        assertEquals(0, time.pendingTasks());
    }

    @Test
    void aSeatReacquiredWhileTheKeepAliveClosesIsGivenBack() {
        KeyrightClient client = clientWithSomethingHappeningDuringACall();
        SeatKeepAlive seat = keepAlive(client);
        seats.expire("lease_1");
        meanwhileAfter = "/acquire";
        meanwhile = seat::close;

        time.advance(Duration.ofSeconds(40));

        assertEquals(List.of("acquire", "renew lease_1", "acquire", "release lease_1", "release lease_2"), seats.calls);
        assertEquals(Set.of(), seats.liveLeases(), "the new seat is released, not left to expire");
        time.advance(Duration.ofMinutes(10));
        assertEquals(1, renewals());
    }

    @Test
    void aRenewalAnsweredAfterTheDeadlineDoesNotReviveTheSeat() {
        KeyrightClient client = clientWithSomethingHappeningDuringACall();
        SeatKeepAlive seat = keepAlive(client);
        meanwhileAfter = "/renew";
        meanwhile = () -> time.advance(Duration.ofSeconds(80)); // the answer takes until the lease's local deadline

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.LOST, seat.state(), "LOST is final");
        assertEquals(List.of("HELD->LOST"), changes);
        assertEquals(Set.of(), seats.liveLeases(), "the late renewal's seat is given back");
        time.advance(Duration.ofMinutes(10));
        assertEquals(1, renewals());
    }

    @Test
    void closeStopsTheKeepAlivesOwnThreads() throws Exception {
        KeyrightClient real = KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test").transport(seats).build();
        Set<Thread> before = keepAliveThreads();
        SeatKeepAlive seat = real.keepAlive(real.acquireSeat(), SeatStateListener.ignoring());
        Set<Thread> started = new java.util.HashSet<>(keepAliveThreads());
        started.removeAll(before);
        assertTrue(!started.isEmpty(), "the keep-alive runs on its own scheduler's threads");

        seat.close();

        for (Thread thread : started) thread.join(5_000);
        assertTrue(started.stream().noneMatch(Thread::isAlive), "its threads end with it");
    }

    private static Set<Thread> keepAliveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("keyright-keep-alive"))
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void anUnexpectedFailureWhileRenewingLosesTheSeatInsteadOfEndingTheKeepAliveSilently() {
        SeatKeepAlive seat = keepAlive(clientWithSomethingHappeningDuringACall());
        meanwhileAfter = "/renew";
        meanwhile = () -> {
            throw new IllegalStateException("a bug in the transport");
        };

        time.advance(Duration.ofSeconds(40));

        assertEquals(SeatState.LOST, seat.state());
        assertInstanceOf(IllegalStateException.class, causes.get(0).getCause());
    }
}
