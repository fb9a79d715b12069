package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KeyrightClientTest {

    private FakeKeyrightServer server;
    private FakeSeatService seats;
    private final ManualTime time = new ManualTime();
    private KeyrightClient client;

    @BeforeEach
    void startServer() throws Exception {
        server = new FakeKeyrightServer();
        seats = server.service;
        client = clientBuilder().build();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private KeyrightClientBuilder clientBuilder() {
        return server.clientBuilder().ticker(time).sleeper(time).random(() -> 0.5);
    }

    @Test
    void acquiresAVerifiedSeat() {
        Lease lease = client.acquireSeat(Map.of("user", "r.okafor", "host", "lab-ws-14"));

        assertEquals("lease_1", lease.leaseId());
        assertEquals(FakeSeatService.NOW.plusSeconds(120), lease.expiresAt());
        assertEquals(120, lease.ttlSeconds());
        assertEquals(Duration.ofSeconds(40), lease.renewAfter());
        assertEquals(1, lease.seatsInUse());
        assertEquals(2, lease.maxSeats());
        assertEquals(time.nanos(), lease.requestedAtNanos());
        assertEquals(List.of("inst-test"), seats.clientInstanceIds);
    }

    @Test
    void renewsReleasesAndReadsThePool() {
        Lease lease = client.acquireSeat();
        Lease renewed = client.renewSeat(lease);
        assertEquals(lease.leaseId(), renewed.leaseId());

        SeatPool pool = client.getSeatPool();
        assertEquals(new SeatPool.Holder("r.okafor", "lab-ws-14", FakeSeatService.NOW.minusSeconds(60),
                FakeSeatService.NOW.plusSeconds(120)), pool.holders().get(0));
        assertEquals(1, pool.inUse());
        assertEquals(2, pool.max());

        client.releaseSeat(lease);
        assertEquals(Set.of(), seats.liveLeases());
        assertEquals(List.of("acquire", "renew lease_1", "pool", "release lease_1"), seats.calls);
    }

    @Test
    void releasingALeaseThatIsAlreadyGoneIsSuccess() {
        client.releaseSeat("lease_never_granted");
        seats.answerNext("release", FakeSeatService.problem(410, "lease-expired", Map.of(), null));
        client.releaseSeat("lease_reaped");
        assertEquals(List.of("release lease_never_granted", "release lease_reaped"), seats.calls);
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of(409, "seats-exhausted", SeatsExhaustedException.class),
                Arguments.of(410, "lease-expired", LeaseExpiredException.class),
                Arguments.of(404, "lease-not-found", LeaseNotFoundException.class),
                Arguments.of(401, "invalid-license", InvalidLicenseException.class),
                Arguments.of(403, "license-suspended", LicenseSuspendedException.class),
                Arguments.of(400, "invalid-request", InvalidRequestException.class),
                Arguments.of(503, "service-unavailable", TransientException.class),
                Arguments.of(409, "request-in-progress", TransientException.class),
                Arguments.of(422, "idempotency-key-reused", KeyrightException.class),
                Arguments.of(403, "borrowing-not-allowed", BorrowingNotAllowedException.class),
                Arguments.of(409, "wrong-license-model", WrongLicenseModelException.class),
                Arguments.of(409, "activations-exhausted", ActivationsExhaustedException.class),
                Arguments.of(410, "activation-ended", ActivationEndedException.class),
                Arguments.of(404, "activation-not-found", ActivationNotFoundException.class),
                Arguments.of(500, "internal-error", TransientException.class));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("problems")
    void mapsEachProblemTypeToItsException(int status, String slug, Class<? extends KeyrightException> expected) {
        KeyrightClient once = clientBuilder().acquireAttempts(1).build();
        seats.answerNext("acquire", FakeSeatService.problem(status, slug, Map.of(), 7L));

        KeyrightException e = assertThrows(KeyrightException.class, once::acquireSeat);

        assertEquals(expected, e.getClass());
        assertEquals(status, e.status());
        assertEquals("https://keyright.dev/problems/" + slug, e.problemType().orElseThrow());
        assertEquals("fake " + slug, e.getMessage());
    }

    @Test
    void readsThePoolNumbersAndRetryAfterOfAFullPool() {
        seats.answerNext("acquire", FakeSeatService.problem(409, "seats-exhausted",
                Map.of("seatsInUse", 25, "maxSeats", 25), 12L));
        SeatsExhaustedException e = assertThrows(SeatsExhaustedException.class, client::acquireSeat);
        assertEquals(25, e.seatsInUse());
        assertEquals(25, e.maxSeats());
        assertEquals(Duration.ofSeconds(12), e.retryAfter().orElseThrow());
    }

    @Test
    void readsTheFieldErrorsOfAnInvalidRequest() {
        seats.answerNext("acquire", FakeSeatService.problem(400, "invalid-request",
                Map.of("errors", List.of(Map.of("field", "metadata.user", "message", "too long"))), null));
        InvalidRequestException e = assertThrows(InvalidRequestException.class, client::acquireSeat);
        assertEquals(List.of(new InvalidRequestException.FieldError("metadata.user", "too long")), e.errors());
    }

    @Test
    void treatsAnHtmlGatewayErrorAsTransient() {
        KeyrightClient once = clientBuilder().acquireAttempts(1).build();
        seats.answerNext("acquire", new Transport.Response(502, Map.of(), "<html>Bad gateway</html>"));
        TransientException e = assertThrows(TransientException.class, once::acquireSeat);
        assertEquals(502, e.status());
    }

    @Test
    void reusesTheIdempotencyKeyAcrossRetriesOfOneAcquire() {
        seats.answerNext("acquire", FakeSeatService.problem(503, "service-unavailable", Map.of(), 1L));
        seats.answerNext("acquire", FakeSeatService.problem(409, "request-in-progress", Map.of(), 1L));

        Lease lease = client.acquireSeat();

        assertEquals(3, seats.idempotencyKeys.size());
        assertEquals(1, Set.copyOf(seats.idempotencyKeys).size(), "one key for one logical acquire");
        assertTrue(time.sleeps.stream().allMatch(pause -> pause.compareTo(Duration.ofSeconds(1)) >= 0),
                "never sooner than Retry-After: " + time.sleeps);
        assertEquals("lease_1", lease.leaseId());

        client.acquireSeat();
        assertNotEquals(seats.idempotencyKeys.get(0), seats.idempotencyKeys.get(3), "a new acquire, a new key");
    }

    @Test
    void aSecondAcquireByTheSameInstallGetsItsSeatBackNotASecondOne() {
        Lease first = client.acquireSeat();
        // two logical acquires (two keys): the fake keeps one seat per client instance, as the contract does
        Lease again = client.acquireSeat();
        assertEquals(first.leaseId(), again.leaseId());
        assertEquals(Set.of("lease_1"), seats.liveLeases());
    }

    @Test
    void anAnswerLostAfterTheCommitIsRetriedUnderTheSameKeyAndItsReplayIsTheSameSeat() {
        seats.loseTheAnswerToTheNextGrant();

        Lease lease = client.acquireSeat();

        assertEquals(List.of("acquire", "acquire"), seats.calls, "the dropped connection is retried once");
        assertEquals(seats.idempotencyKeys.get(0), seats.idempotencyKeys.get(1), "the retry is the same logical acquire");
        JsonObject lost = JsonObject.parse(seats.lostAnswers.get(0).body());
        assertEquals(lost.getString("leaseId"), lease.leaseId());
        // ES256 signatures are randomized: an answer made afresh (the install's seat handed back, 200) has
        // another token; only the replay of the committed answer carries this one.
        assertEquals(lost.getString("token"), lease.token(), "the committed answer, replayed");
        assertEquals(Set.of("lease_1"), seats.liveLeases(), "one seat, and the SDK keeps it");
    }

    @Test
    void givesUpAfterTheBoundedNumberOfTransientAttempts() {
        for (int i = 0; i < 3; i++) {
            seats.answerNext("acquire", FakeSeatService.problem(503, "service-unavailable", Map.of(), null));
        }
        assertThrows(TransientException.class, client::acquireSeat);
        assertEquals(3, seats.idempotencyKeys.size());
        assertEquals(2, time.sleeps.size());
    }

    @Test
    void doesNotSitOutALongRetryAfterInsideOneAcquire() {
        seats.answerNext("acquire", FakeSeatService.problem(503, "service-unavailable", Map.of(), 60L));
        TransientException e = assertThrows(TransientException.class, client::acquireSeat);
        assertEquals(Duration.ofSeconds(60), e.retryAfter().orElseThrow());
        assertEquals(List.of(), time.sleeps);
    }

    @Test
    void reportsAnUnreachableServerAsTransient() {
        server.close();
        KeyrightClient once = clientBuilder().acquireAttempts(1).build();
        TransientException e = assertThrows(TransientException.class, once::acquireSeat);
        assertEquals(0, e.status());
    }

    @Test
    void waitsForASeatHonouringRetryAfterWithinTheBudget() {
        seats.maxSeats = 1;
        String other = seats.holdSeatFor("inst-other");
        seats.retryAfterSeconds = 5;
        List<String> told = new ArrayList<>();
        // the seat frees up when the client has waited three times
        Sleeper freeingOnThirdPause = pause -> {
            time.sleep(pause);
            if (time.sleeps.size() == 3) seats.free(other);
        };
        KeyrightClient waiting = clientBuilder().sleeper(freeingOnThirdPause).build();

        Lease lease = waiting.acquireSeatWaiting(Duration.ofMinutes(1),
                (refusal, waited) -> told.add(refusal.seatsInUse() + "/" + refusal.maxSeats() + " " + waited));

        assertEquals("lease_2", lease.leaseId());
        assertEquals(3, time.sleeps.size());
        for (Duration pause : time.sleeps) {
            assertTrue(pause.compareTo(Duration.ofSeconds(5)) >= 0 && pause.compareTo(Duration.ofSeconds(6)) <= 0,
                    "Retry-After plus at most 20% jitter: " + pause);
        }
        assertEquals(List.of("1/1 PT0S", "1/1 PT5.5S", "1/1 PT11S"), told, "told of each refusal and the time waited");
        assertEquals(4, Set.copyOf(seats.idempotencyKeys).size(), "each attempt is a new logical acquire");
    }

    @Test
    void aBlockedInstallIsRefusedWithItsEndAndAWaitingAcquireStopsAtOnce() {
        String held = seats.holdSeatFor("inst-test");
        seats.revokeAndBlock(held, FakeSeatService.NOW.plusSeconds(3600));

        InstallBlockedException blocked = assertThrows(InstallBlockedException.class, client::acquireSeat);
        assertEquals(403, blocked.status());
        assertEquals(java.util.Optional.of(FakeSeatService.NOW.plusSeconds(3600)), blocked.blockedUntil());
        assertEquals(java.util.Optional.of(Duration.ofHours(1)), blocked.retryAfter());

        seats.calls.clear();
        long start = time.nanos();
        assertThrows(InstallBlockedException.class,
                () -> client.acquireSeatWaiting(Duration.ofMinutes(10), SeatWaitListener.silent()));
        assertEquals(0, time.nanos() - start, "no waiting: a block is no full pool");
        assertEquals(List.of("acquire"), seats.calls.stream().filter(c -> c.equals("acquire")).toList(), "asked once");
    }

    @Test
    void throwsTheLastRefusalWhenTheBudgetIsSpent() {
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-other");
        seats.retryAfterSeconds = 5;
        long start = time.nanos();

        SeatsExhaustedException e = assertThrows(SeatsExhaustedException.class,
                () -> client.acquireSeatWaiting(Duration.ofSeconds(20), SeatWaitListener.silent()));

        assertEquals(1, e.maxSeats());
        assertEquals(Duration.ofSeconds(20), Duration.ofNanos(time.nanos() - start), "the whole budget");
        assertEquals(List.of(Duration.ofMillis(5500), Duration.ofMillis(5500), Duration.ofMillis(5500),
                Duration.ofMillis(3500)), time.sleeps, "5.5 s pauses, the last cut short for a try at 20 s");
        assertEquals(List.of("acquire", "acquire", "acquire", "acquire", "acquire", "leave-queue inst-test"), seats.calls,
                "leaves the queue (an older server's 404 to that is ignored)");
    }

    @Test
    void aBudgetShorterThanRetryAfterWaitsItsWholeLengthAndTellsTheListener() {
        seats.maxSeats = 1;
        seats.holdSeatFor("inst-other");
        seats.retryAfterSeconds = 40;
        List<Duration> told = new ArrayList<>();
        long start = time.nanos();

        SeatsExhaustedException e = assertThrows(SeatsExhaustedException.class,
                () -> client.acquireSeatWaiting(Duration.ofSeconds(30), (refusal, waited) -> told.add(waited)));

        assertEquals(Duration.ofSeconds(30), Duration.ofNanos(time.nanos() - start));
        assertEquals(List.of(Duration.ZERO, Duration.ofSeconds(30)), told);
        assertEquals(List.of("acquire", "acquire", "leave-queue inst-test"), seats.calls);
        assertTrue(e.queuePosition().isEmpty(), "an older server gives no place in the queue");
    }

    /** The fake as a server that queues (API v2), whose holds let fake time pass. */
    private void queueingServer() {
        seats.queueing = true;
        seats.clock = time;
        seats.maxSeats = 1;
    }

    @Test
    void asksToBeHeldInTheQueueAndResendsAtOnceKeepingItsPlace() {
        queueingServer();
        String other = seats.holdSeatFor("inst-other");
        seats.queueUp("inst-ahead");
        seats.duringHold = hold -> {
            if (hold == 2) seats.leaveQueue("inst-ahead");
            if (hold == 4) seats.free(other);
        };
        List<String> told = new ArrayList<>();

        Lease lease = client.acquireSeatWaiting(Duration.ofMinutes(10),
                (refusal, waited) -> told.add(refusal.queuePosition().getAsInt() + " after " + waited.toSeconds() + "s"));

        assertEquals("lease_2", lease.leaseId());
        assertEquals(List.of("wait=1", "wait=20", "wait=20", "wait=20"), seats.prefers,
                "a 1 s hold first, to learn the place at once, then the default 20 s");
        assertEquals(List.of("2 after 1s", "1 after 21s", "1 after 41s"), told);
        assertEquals(List.of(), time.sleeps, "a held refusal is re-sent at once");
        assertEquals(List.of("inst-test", "inst-test", "inst-test", "inst-test"), seats.clientInstanceIds);
        assertEquals(List.of(), seats.queue());
    }

    @Test
    void aTwoHourBudgetKeepsHoldingUntilTheServerGrants() {
        queueingServer();
        String other = seats.holdSeatFor("inst-other");
        seats.duringHold = hold -> {
            if (hold == 100) seats.free(other);
        };
        long start = time.nanos();

        Lease lease = client.acquireSeatWaiting(Duration.ofHours(2), SeatWaitListener.silent());

        assertEquals("lease_2", lease.leaseId());
        assertEquals(100, seats.prefers.size());
        assertEquals(Duration.ofSeconds(1 + 98 * 20), Duration.ofNanos(time.nanos() - start));
        assertTrue(seats.calls.stream().noneMatch(c -> c.startsWith("leave-queue")), seats.calls.toString());
    }

    @Test
    void leavesTheQueueWhenTheBudgetEndsAndThrowsTheLastRefusalWithItsPlace() {
        queueingServer();
        seats.holdSeatFor("inst-other");
        seats.queueUp("inst-ahead");
        long start = time.nanos();

        SeatsExhaustedException e = assertThrows(SeatsExhaustedException.class,
                () -> client.acquireSeatWaiting(Duration.ofSeconds(90), SeatWaitListener.silent()));

        assertEquals(List.of("wait=1", "wait=20", "wait=20", "wait=20", "wait=20", "wait=9"), seats.prefers,
                "the last hold is the budget left");
        assertEquals(Duration.ofSeconds(90), Duration.ofNanos(time.nanos() - start));
        assertEquals(2, e.queuePosition().getAsInt());
        assertEquals(List.of("acquire", "acquire", "acquire", "acquire", "acquire", "acquire", "leave-queue inst-test"),
                seats.calls);
        assertEquals(List.of("inst-ahead"), seats.queue(), "its place is given up");
    }

    @Test
    void aHeldAcquireMayTakeAsLongAsItsHoldPlusTheRequestTimeout() {
        queueingServer();
        seats.holdSeatFor("inst-other");
        KeyrightClient direct = clientBuilder().transport(seats).queueHold(Duration.ofSeconds(20)).build();

        assertThrows(SeatsExhaustedException.class, () -> direct.acquireSeat());
        assertThrows(SeatsExhaustedException.class,
                () -> direct.acquireSeatWaiting(Duration.ofSeconds(30), SeatWaitListener.silent()));

        assertEquals(List.of("", "wait=1", "wait=20", "wait=9"), seats.prefers, "a plain acquire asks for no hold");
        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(6), Duration.ofSeconds(25), Duration.ofSeconds(14)),
                seats.acquireTimeouts,
                "the request timeout (5 s) plus the hold");
    }

    @Test
    void refusesAQueueHoldOutsideTheContractsRange() {
        assertThrows(IllegalStateException.class, () -> clientBuilder().queueHold(Duration.ofSeconds(61)).build());
        assertThrows(IllegalStateException.class, () -> clientBuilder().queueHold(Duration.ofMillis(999)).build());
    }

    @Test
    void aZeroBudgetTriesOnce() {
        seats.maxSeats = 0;
        assertThrows(SeatsExhaustedException.class,
                () -> client.acquireSeatWaiting(Duration.ZERO, SeatWaitListener.silent()));
        assertEquals(List.of("acquire"), seats.calls);
    }

    @Test
    void refusesAnUnreadableLeaseAndReleasesIt() {
        seats.answerNext("acquire", new Transport.Response(201, Map.of(), "{\"leaseId\":\"lease_9\"}"));
        LeaseVerificationException e = assertThrows(LeaseVerificationException.class, client::acquireSeat);
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        assertEquals(List.of("acquire", "release lease_9"), seats.calls);
    }

    @Test
    void refusesABuilderWithoutTheEssentials() {
        assertThrows(IllegalStateException.class, () -> KeyrightClient.builder().build());
        assertThrows(IllegalStateException.class,
                () -> KeyrightClient.builder().server("ftp://x").product("p").licenseKey("k").build());
        assertThrows(IllegalArgumentException.class, () -> clientBuilder().clientInstanceId("has space").build());
    }
}
