package dev.keyright.client;

import static dev.keyright.client.FakeOfflineServer.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jose4j.json.JsonUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Node-locked activations: activate, the certificate checked offline, refresh, deactivate. */
class ActivationTest {

    static final String THIS_MACHINE = MachineFingerprint.derive(FakeOfflineServer.PRODUCT, "5a0c2e9b7d1f4e3a8b6c0d2e4f6a8b1c");
    static final String OTHER_MACHINE = MachineFingerprint.derive(FakeOfflineServer.PRODUCT, "9f0e4b7a11aa4c0d8e2b55c3a6d1f0e2");

    @TempDir
    Path home;

    private final FakeOfflineServer server = new FakeOfflineServer();
    private final WallClock clock = new WallClock(START);
    private final ManualTime time = new ManualTime();

    {
        server.model = "node-locked";
    }

    private KeyrightClient client(String machine) {
        return KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeOfflineServer.PRODUCT)
                .licenseKey(FakeOfflineServer.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeOfflineServer.ISSUER)
                .transport(server).offlineStore(home).clock(clock).machineFingerprint(machine)
                .metadata(Map.of("user", "r.okafor", "host", "lab-ws-14"))
                .ticker(time).sleeper(time).random(() -> 0.0).build();
    }

    private KeyrightClient client() {
        return client(THIS_MACHINE);
    }

    private Path storeFile() {
        return home.resolve("offline.json");
    }

    @Test
    void activatesAMachineAndTheSameFingerprintGetsItsActivationBackWithAFreshCertificate() throws Exception {
        KeyrightClient client = client();
        Activation first = client.activate();

        assertTrue(first.activationId().matches("act_[0-9a-f]{32}"), first.activationId());
        assertEquals(THIS_MACHINE, first.fingerprint());
        assertEquals(START.plus(Duration.ofDays(30)), first.expiresAt());
        assertEquals(START.plus(Duration.ofHours(24)), first.revalidateAfter());
        assertEquals(1, first.activationsInUse());
        assertEquals(2, first.maxActivations());
        assertEquals(List.of("jwks", "activate"), server.calls);
        Map<String, Object> body = JsonUtil.parseJson(server.bodies.get(0));
        assertEquals(Map.of("product", FakeOfflineServer.PRODUCT, "licenseKey", FakeOfflineServer.LICENSE_KEY,
                "fingerprint", THIS_MACHINE, "metadata", Map.of("user", "r.okafor", "host", "lab-ws-14")), body);

        server.now = START.plus(Duration.ofHours(5));
        clock.set(server.now);
        Activation again = client.activate();

        assertEquals(first.activationId(), again.activationId(), "200: the same activation");
        assertEquals(START.plus(Duration.ofHours(5)).plus(Duration.ofDays(30)), again.expiresAt());
        assertNotEquals(first.certificate(), again.certificate());
        assertEquals(1L, server.activationsInUse());
        assertEquals(again, client.checkActivation(), "the fresh certificate is the one stored");
        assertNotEquals(server.idempotencyKeys.get(0), server.idempotencyKeys.get(1), "a fresh key per activation");
    }

    @Test
    void aLostAnswerIsAskedAgainUnderTheSameIdempotencyKeyAndCostsNoSecondSlot() {
        server.answerNext("activate", FakeSeatService.problem(503, "service-unavailable", Map.of(), 1L));

        Activation activation = client().activate();

        assertEquals(List.of("jwks", "activate", "activate"), server.calls);
        assertEquals(server.idempotencyKeys.get(0), server.idempotencyKeys.get(1));
        assertEquals(List.of(activation.activationId()), server.liveActivations());
    }

    @Test
    void theCertificateIsCheckedOfflineUntilItsExpAndNotOneSecondAfter() {
        Activation activation = client().activate();
        server.down = true;

        KeyrightClient offline = client();
        clock.set(activation.expiresAt());
        assertEquals(activation, offline.checkActivation());
        clock.advance(Duration.ofSeconds(1));
        OfflineLicenseExpiredException expired = assertThrows(OfflineLicenseExpiredException.class,
                offline::checkActivation);
        assertEquals(activation.expiresAt(), expired.expiredAt());
    }

    @Test
    void anotherMachineCannotUseTheCertificate() {
        client().activate();

        WrongMachineException wrong = assertThrows(WrongMachineException.class, () -> client(OTHER_MACHINE).checkActivation());
        assertTrue(wrong.getMessage().contains(THIS_MACHINE), wrong.getMessage());
    }

    @Test
    void aClockSetBackIsRefusedForTheCertificateToo() {
        KeyrightClient client = client();
        client.activate();
        clock.set(START.plus(Duration.ofDays(10)));
        client.checkActivation();

        clock.set(START.plus(Duration.ofDays(1)));
        assertThrows(ClockRolledBackException.class, client::checkActivation);
    }

    @Test
    void aStoreEditedToAnotherMachinesFingerprintIsRefused() throws Exception {
        client().activate();
        Files.writeString(storeFile(), Files.readString(storeFile()).replace(THIS_MACHINE, OTHER_MACHINE));

        OfflineLicenseInvalidException edited = assertThrows(OfflineLicenseInvalidException.class,
                () -> client(OTHER_MACHINE).checkActivation());
        assertTrue(edited.getMessage().contains("is for fingerprint " + THIS_MACHINE), edited.getMessage());
    }

    @Test
    void aCertificateThatFailsVerificationIsNotKept() {
        server.certificateClaims = claims -> claims.setSubject(OTHER_MACHINE);

        assertThrows(LeaseVerificationException.class, () -> client().activate());
        assertFalse(Files.exists(storeFile()));
    }

    @Test
    void anAnswerWithApiV2sShortBodyTakesExpiresAtFromTheCertificate() {
        server.shortActivationBody = true;

        Activation activation = client().activate();

        assertEquals(START.plus(Duration.ofDays(30)), activation.expiresAt());
        assertEquals(THIS_MACHINE, activation.fingerprint());
        assertEquals(activation, client().checkActivation());
    }

    @Test
    void aRefreshStoresANewCertificate() {
        KeyrightClient client = client();
        Activation first = client.activate();
        server.now = START.plus(Duration.ofHours(24));
        clock.set(server.now);

        Activation refreshed = client.refreshActivation();

        assertEquals(first.activationId(), refreshed.activationId());
        assertEquals(server.now.plus(Duration.ofDays(30)), refreshed.expiresAt());
        assertEquals("refresh " + first.activationId(), server.calls.get(server.calls.size() - 1));
        assertEquals(refreshed, client.checkActivation());
    }

    @Test
    void aRevokedActivationIsDeletedAtItsNextRefresh() {
        KeyrightClient client = client();
        Activation activation = client.activate();
        server.revokeActivation(activation.activationId());

        assertThrows(ActivationEndedException.class, client::refreshActivation);

        assertFalse(Files.exists(storeFile()));
        assertThrows(OfflineLicenseNotFoundException.class, client::checkActivation);
    }

    @Test
    void anActivationTheServerDoesNotKnowIsDeletedToo() {
        KeyrightClient client = client();
        client.activate();
        server.answerNext("refresh", FakeSeatService.problem(404, "activation-not-found", Map.of(), null));

        assertThrows(ActivationNotFoundException.class, client::refreshActivation);
        assertFalse(Files.exists(storeFile()));
    }

    @Test
    void deactivatingFreesTheSlotAndDeletesTheCertificate() {
        KeyrightClient client = client();
        Activation activation = client.activate();

        assertTrue(client.deactivate());

        assertEquals("deactivate " + activation.activationId(), server.calls.get(server.calls.size() - 1));
        assertEquals(List.of(), server.liveActivations());
        assertFalse(Files.exists(storeFile()));
        assertFalse(client.deactivate(), "nothing left to deactivate");
    }

    @Test
    void anActivationAlreadyEndedCountsAsDeactivatedAndNoNetworkKeepsIt() {
        KeyrightClient client = client();
        Activation activation = client.activate();
        server.down = true;
        assertThrows(TransientException.class, client::deactivate);
        assertEquals(activation, client.checkActivation());

        server.down = false;
        server.revokeActivation(activation.activationId());
        assertTrue(client.deactivate());
        assertFalse(Files.exists(storeFile()));
    }

    @Test
    void refusalsOfActivationAreTyped() {
        client(OTHER_MACHINE).activate();
        client(MachineFingerprint.derive(FakeOfflineServer.PRODUCT, "a-third-machine")).activate();

        ActivationsExhaustedException full = assertThrows(ActivationsExhaustedException.class, () -> client().activate());
        assertEquals(2, full.activationsInUse());
        assertEquals(2, full.maxActivations());
        assertEquals(409, full.status());

        server.model = "floating";
        WrongLicenseModelException wrong = assertThrows(WrongLicenseModelException.class, () -> client().activate());
        assertEquals("floating", wrong.model().orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> client().activate("too-short"));
    }

    @Test
    void aBorrowedSeatAndAnActivationShareTheStoreWithoutLosingEachOther() {
        KeyrightClient client = client();
        Activation activation = client.activate();
        server.model = "floating";
        BorrowedSeat seat = client.borrow(Duration.ofHours(8));

        assertEquals(activation, client.checkActivation());
        assertEquals(seat, client.checkBorrowedSeat());
        assertTrue(client.returnBorrowed());
        assertEquals(activation, client.checkActivation(), "returning the seat keeps the activation");
    }
}
