package dev.keyright.client;

import static dev.keyright.client.FakeOfflineServer.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jose4j.json.JsonUtil;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Borrowing a seat (API "Offline use"): the borrow, the offline check at its boundaries, tampering, the return. */
class BorrowingTest {

    @TempDir
    Path home;

    private final FakeOfflineServer server = new FakeOfflineServer();
    private final WallClock clock = new WallClock(START);
    private final ManualTime time = new ManualTime();

    private KeyrightClientBuilder builder() {
        return KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeOfflineServer.PRODUCT)
                .licenseKey(FakeOfflineServer.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeOfflineServer.ISSUER)
                .transport(server).offlineStore(store()).clock(clock).ticker(time).sleeper(time).random(() -> 0.0);
    }

    private KeyrightClient client() {
        return builder().build();
    }

    private Path store() {
        return home.resolve(FakeOfflineServer.PRODUCT);
    }

    private Path storeFile() {
        return store().resolve("offline.json");
    }

    @Test
    void aBorrowedSeatIsLicensedOfflineUpToAndIncludingBorrowedUntilAndNotOneSecondAfter() {
        BorrowedSeat seat = client().borrow(Duration.ofHours(8));

        assertEquals("lease_1", seat.leaseId());
        assertEquals(START.plus(Duration.ofHours(8)), seat.borrowedUntil());
        assertEquals(List.of("acquire", "jwks", "jwks", "borrow lease_1"), server.calls,
                "the JWKS kept with the token is the one fetched for the borrow, not the one cached at the acquire");
        assertEquals("{\"hours\":8}", server.bodies.get(1));
        server.down = true;

        KeyrightClient offline = client();
        clock.set(seat.borrowedUntil());
        assertEquals(seat, offline.checkBorrowedSeat());
        clock.advance(Duration.ofSeconds(1));
        OfflineLicenseExpiredException expired = assertThrows(OfflineLicenseExpiredException.class,
                offline::checkBorrowedSeat);
        assertEquals(seat.borrowedUntil(), expired.expiredAt());
        assertEquals(4, server.calls.size(), "no call to the server: " + server.calls);
    }

    @Test
    void aBorrowIsAskedInWholeHoursRoundedUpAndRefusedUnderAnHourOrBeyondWhatTheContractCanSay() {
        KeyrightClient client = client();
        assertThrows(IllegalArgumentException.class, () -> client.borrow(Duration.ofMinutes(59)));
        assertThrows(IllegalArgumentException.class, () -> client.borrow(Duration.ofHours(720).plusSeconds(1)));
        assertEquals(List.of(), server.calls, "nothing acquired for a duration the contract cannot say");

        client.borrow(Duration.ofHours(8).plusMinutes(1));
        assertEquals("{\"hours\":9}", server.bodies.get(server.bodies.size() - 1));
        client.borrow(Duration.ofHours(1));
        assertEquals("{\"hours\":1}", server.bodies.get(server.bodies.size() - 1));
        assertEquals(START.plus(Duration.ofHours(9)), client.checkBorrowedSeat().borrowedUntil(),
                "borrowing again never shortens");
    }

    @Test
    void aClockSetBackBelowTheLastTimeSeenIsRefusedBeyondTwoMinutes() {
        KeyrightClient client = client();
        client.borrow(Duration.ofHours(8));
        Instant seen = START.plus(Duration.ofHours(3));
        clock.set(seen);
        client.checkBorrowedSeat();

        clock.set(seen.minus(OfflineLicense.ROLLBACK_TOLERANCE));
        client.checkBorrowedSeat();
        clock.set(seen.minus(OfflineLicense.ROLLBACK_TOLERANCE).minusSeconds(1));
        ClockRolledBackException rolledBack = assertThrows(ClockRolledBackException.class, client::checkBorrowedSeat);
        assertEquals(seen, rolledBack.lastSeen(), "a check within the tolerance did not move lastSeen back");
        assertEquals(seen.minusSeconds(121), rolledBack.now());

        clock.set(seen);
        client.checkBorrowedSeat();
    }

    @Test
    void aClockBehindTheServersAtTheBorrowIsRefusedThenAndTheSeatGivenBack() {
        clock.set(START.minus(Duration.ofMinutes(10)));

        ClockRolledBackException behind = assertThrows(ClockRolledBackException.class,
                () -> client().borrow(Duration.ofHours(8)));

        assertEquals(START, behind.lastSeen(), "the token's iat, the server's clock");
        assertFalse(Files.exists(storeFile()));
        assertEquals("release lease_1", server.calls.get(server.calls.size() - 1));
        assertFalse(server.leaseIsLive("lease_1"));
    }

    @Test
    void everySuccessfulCheckMovesLastSeenForward() throws Exception {
        KeyrightClient client = client();
        client.borrow(Duration.ofHours(8));
        assertEquals(START.toString(), storedJson().get("lastSeen"));
        clock.set(START.plus(Duration.ofHours(2)));
        client.checkBorrowedSeat();
        assertEquals(START.plus(Duration.ofHours(2)).toString(), storedJson().get("lastSeen"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"token", "jwks", "borrowedUntil", "leaseId", "product"})
    void anEditedStoreIsRefused(String edited) throws Exception {
        client().borrow(Duration.ofHours(8));
        Map<String, Object> json = storedJson();
        Map<String, Object> borrowed = member(json, "borrowed");
        switch (edited) {
            case "token":
                String token = (String) borrowed.get("token");
                String[] parts = token.split("\\.");
                String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]))
                        .replace("\"exp\":" + START.plus(Duration.ofHours(8)).getEpochSecond(),
                                "\"exp\":" + START.plus(Duration.ofDays(30)).getEpochSecond());
                borrowed.put("token", parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(payload.getBytes()) + "." + parts[2]);
                borrowed.put("borrowedUntil", START.plus(Duration.ofDays(30)).toString());
                break;
            case "jwks":
                borrowed.put("jwks", JsonUtil.parseJson(new JsonWebKeySet(List.of((JsonWebKey) new TokenMint("key-1").key)).toJson()));
                break;
            case "borrowedUntil":
                borrowed.put("borrowedUntil", START.plus(Duration.ofDays(30)).toString());
                break;
            case "leaseId":
                borrowed.put("leaseId", "lease_2");
                break;
            default:
                json.put("product", "acme-cad");
        }
        Files.writeString(storeFile(), JsonUtil.toJson(json));

        assertThrows(OfflineLicenseInvalidException.class, () -> client().checkBorrowedSeat());
    }

    @Test
    void aStoreResignedWithAKeyOfTheUsersOwnIsRefusedByAnAppThatEmbedsTheServersKey() throws Exception {
        client().borrow(Duration.ofHours(8));
        TokenMint forger = new TokenMint("key-1");
        Instant later = START.plus(Duration.ofDays(300));
        Map<String, Object> json = storedJson();
        Map<String, Object> borrowed = member(json, "borrowed");
        org.jose4j.jwt.JwtClaims claims = TokenMint.claims("lease_1", FakeOfflineServer.PRODUCT, FakeOfflineServer.ISSUER, later);
        claims.setClaim("bor", true);
        borrowed.put("token", forger.sign(claims));
        borrowed.put("borrowedUntil", later.toString());
        borrowed.put("jwks", JsonUtil.parseJson(new JsonWebKeySet(List.of((JsonWebKey) forger.key)).toJson()));
        Files.writeString(storeFile(), JsonUtil.toJson(json));
        clock.set(START.plus(Duration.ofDays(100)));

        assertEquals(later, client().checkBorrowedSeat().borrowedUntil(),
                "the stored JWKS alone cannot tell a forger's key from the server's (docs/CLIENT.md says so)");
        assertThrows(OfflineLicenseInvalidException.class,
                () -> builder().verifyWith(server.mint.key.getPublicKey()).build().checkBorrowedSeat());
    }

    @Test
    void returningReleasesTheLeaseAndDeletesTheStore() {
        KeyrightClient client = client();
        client.borrow(Duration.ofHours(8));

        assertTrue(client.returnBorrowed());

        assertEquals("release lease_1", server.calls.get(server.calls.size() - 1));
        assertFalse(server.leaseIsLive("lease_1"));
        assertFalse(Files.exists(storeFile()));
        assertThrows(OfflineLicenseNotFoundException.class, client::checkBorrowedSeat);
        assertFalse(client.returnBorrowed(), "nothing is borrowed any more");
    }

    @Test
    void aSeatTheServerNoLongerHoldsCountsAsReturned() {
        KeyrightClient client = client();
        client.borrow(Duration.ofHours(8));
        server.revokeLease("lease_1");
        server.answerNext("release", FakeSeatService.problem(410, "lease-expired", Map.of(), null));

        assertTrue(client.returnBorrowed());
        assertFalse(Files.exists(storeFile()));
    }

    @Test
    void returningWithoutTheNetworkKeepsTheSeatBorrowed() {
        KeyrightClient client = client();
        client.borrow(Duration.ofHours(8));
        server.down = true;

        assertThrows(TransientException.class, client::returnBorrowed);
        assertEquals("lease_1", client.checkBorrowedSeat().leaseId());
    }

    @Test
    void aRefusedBorrowIsTypedAndGivesTheSeatTakenForItBack() {
        server.maxBorrowHours = 0;
        assertThrows(BorrowingNotAllowedException.class, () -> client().borrow(Duration.ofHours(8)));
        assertEquals("release lease_1", server.calls.get(server.calls.size() - 1));

        server.maxBorrowHours = 4;
        InvalidRequestException tooLong = assertThrows(InvalidRequestException.class,
                () -> client().borrow(Duration.ofHours(8)));
        assertEquals("hours", tooLong.errors().get(0).field());
        assertEquals("release lease_2", server.calls.get(server.calls.size() - 1));

        KeyrightClient client = client();
        Lease lease = client.acquireSeat();
        server.model = "node-locked";
        WrongLicenseModelException wrong = assertThrows(WrongLicenseModelException.class,
                () -> client.borrowSeat(lease, Duration.ofHours(2)));
        assertEquals("node-locked", wrong.model().orElseThrow());
        assertEquals("borrow lease_3", server.calls.get(server.calls.size() - 1), "the caller's own lease is left alone");
        assertFalse(Files.exists(storeFile()));
    }

    @Test
    void aSecondBorrowThatFailsLeavesTheSeatBorrowedHereAsItWas() {
        KeyrightClient client = client();
        BorrowedSeat seat = client.borrow(Duration.ofHours(8));
        server.maxBorrowHours = 4;

        assertThrows(InvalidRequestException.class, () -> client.borrow(Duration.ofHours(8)));
        server.maxBorrowHours = 72;
        server.answerNext("borrow", typActivationBorrowAnswer());
        assertThrows(LeaseVerificationException.class, () -> client.borrow(Duration.ofHours(9)));

        assertFalse(server.calls.contains("release lease_1"), server.calls.toString());
        assertTrue(server.leaseIsLive("lease_1"));
        assertEquals(seat, client.checkBorrowedSeat());
    }

    @ParameterizedTest
    @CsvSource({"no bor, bor: true", "exp, is not borrowedUntil", "typ, its typ is not lease+jwt", "aud, its aud is not acme-studio"})
    void aBorrowedTokenThatFailsVerificationIsNotKeptAndItsSeatIsReleased(String broken, String why) {
        switch (broken) {
            case "no bor": server.borrowedTokenClaims = claims -> claims.unsetClaim("bor"); break;
            case "exp": server.borrowedTokenClaims = claims -> claims.setExpirationTimeMinutesInTheFuture(60 * 24 * 365); break;
            case "aud": server.borrowedTokenClaims = claims -> claims.setAudience("acme-cad"); break;
            default: server.answerNext("borrow", typActivationBorrowAnswer());
        }
        KeyrightClient client = builder().acquireAttempts(1).build();
        Lease lease = client.acquireSeat();

        LeaseVerificationException refused = assertThrows(LeaseVerificationException.class,
                () -> client.borrowSeat(lease, Duration.ofHours(8)));
        assertTrue(refused.getMessage().contains(why), refused.getMessage());
        assertFalse(Files.exists(storeFile()));
        assertEquals("release lease_1", server.calls.get(server.calls.size() - 1));
    }

    /** A borrow answer whose token is signed by the server's key with {@code typ: activation+jwt}. */
    private FakeOfflineServer.Response typActivationBorrowAnswer() {
        Instant until = START.plus(Duration.ofHours(8));
        org.jose4j.jwt.JwtClaims claims = TokenMint.claims("lease_1", FakeOfflineServer.PRODUCT, FakeOfflineServer.ISSUER, until);
        claims.setClaim("bor", true);
        String token = server.mint.sign(claims, "ES256", server.mint.key.getPrivateKey(), "activation+jwt");
        return new Transport.Response(200, Map.of(), JsonUtil.toJson(Map.of("leaseId", "lease_1", "token", token,
                "expiresAt", until.toString(), "borrowedUntil", until.toString(), "ttlSeconds", 28800,
                "renewAfterSeconds", 40, "seatsInUse", 1, "maxSeats", 2)));
    }

    @Test
    void theStoreIsOneOwnerOnlyJsonFileWrittenWholeUnderKeyrightHome() throws Exception {
        KeyrightClient client = KeyrightClient.builder().server("http://127.0.0.1:1").product(FakeOfflineServer.PRODUCT)
                .licenseKey(FakeOfflineServer.LICENSE_KEY).clientInstanceId("inst-test").issuer(FakeOfflineServer.ISSUER)
                .transport(server).environment(Map.of("KEYRIGHT_HOME", home.toString())).clock(clock).build();

        client.borrow(Duration.ofHours(8));

        assertTrue(Files.exists(storeFile()), "the default store is $KEYRIGHT_HOME/<product>/offline.json");
        Map<String, Object> json = storedJson();
        assertEquals(1L, json.get("format"));
        assertEquals(FakeOfflineServer.PRODUCT, json.get("product"));
        assertEquals(START.toString(), json.get("lastSeen"));
        Map<String, Object> borrowed = member(json, "borrowed");
        assertEquals(List.of("leaseId", "borrowedUntil", "token", "jwks"), List.copyOf(borrowed.keySet()));
        assertEquals(START.plus(Duration.ofHours(8)).toString(), borrowed.get("borrowedUntil"));
        assertEquals("key-1", ((Map<?, ?>) ((List<?>) member(borrowed, "jwks").get("keys")).get(0)).get("kid"));
        try (var files = Files.list(store())) {
            assertEquals(List.of("offline.json", "offline.lock"), files.map(f -> f.getFileName().toString()).sorted()
                    .collect(java.util.stream.Collectors.toList()), "no temporary file left behind");
        }
        if (store().getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(storeFile())));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store())));
        }
    }

    @Test
    void anOfflineLicenseNeedsNeitherServerNorLicenseKey() {
        client().borrow(Duration.ofHours(8));
        OfflineLicense offline = KeyrightClient.builder().product(FakeOfflineServer.PRODUCT).offlineStore(store())
                .clock(clock).issuer(FakeOfflineServer.ISSUER).buildOfflineLicense();

        assertEquals("lease_1", offline.checkBorrowedSeat().leaseId());
        assertEquals(storeFile(), offline.storeFile());
        UnaryOperator<KeyrightClientBuilder> otherIssuer = b -> b.issuer("https://elsewhere.test");
        assertThrows(OfflineLicenseInvalidException.class, () -> otherIssuer.apply(KeyrightClient.builder()
                .product(FakeOfflineServer.PRODUCT).offlineStore(store()).clock(clock)).buildOfflineLicense()
                .checkBorrowedSeat());
    }

    /** The stored document as maps a test may edit (jose4j's own refuse to replace a member). */
    private Map<String, Object> storedJson() throws Exception {
        return editable(JsonUtil.parseJson(Files.readString(storeFile())));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> editable(Map<String, Object> json) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>();
        json.forEach((name, value) -> copy.put(name, value instanceof Map ? editable((Map<String, Object>) value) : value));
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> member(Map<String, Object> json, String name) {
        return (Map<String, Object>) json.get(name);
    }
}
