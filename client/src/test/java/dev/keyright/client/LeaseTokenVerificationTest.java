package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.keys.HmacKey;
import org.jose4j.lang.JoseException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lease tokens are checked on receipt; a refused token is no lease, and its seat is released. */
class LeaseTokenVerificationTest {

    private FakeKeyrightServer server;
    private FakeSeatService seats;
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
        return server.clientBuilder().sleeper(d -> { });
    }

    private void assertRefusedAndReleased() {
        assertThrows(LeaseVerificationException.class, client::acquireSeat);
        assertEquals(List.of("acquire", "release lease_1"), seats.calls, "the refused seat is given back");
        assertEquals(0, seats.liveLeases().size());
    }

    @Test
    void acceptsTheServersTokenAndCachesTheJwks() {
        client.acquireSeat();
        client.renewSeat("lease_1");
        client.renewSeat("lease_1");
        assertEquals(1, seats.jwksFetches.get());
    }

    @Test
    void refusesATokenSignedByAnotherKeyWithTheSameKid() {
        TokenMint impostor = new TokenMint("key-1");
        seats.tokens = (leaseId, exp) -> impostor.sign(FakeSeatService.claimsFor(leaseId, exp));
        assertRefusedAndReleased();
    }

    @Test
    void refusesAlgNone() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor(leaseId, exp),
                AlgorithmIdentifiers.NONE, null, "lease+jwt");
        assertRefusedAndReleased();
    }

    @Test
    void refusesHs256KeyedWithThePublicKey() {
        HmacKey publicKeyAsSecret = new HmacKey(seats.mint.key.getPublicKey().getEncoded());
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor(leaseId, exp),
                AlgorithmIdentifiers.HMAC_SHA256, publicKeyAsSecret, "lease+jwt");
        assertRefusedAndReleased();
    }

    @Test
    void refusesEs384AndOtherAlgorithms() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor(leaseId, exp),
                AlgorithmIdentifiers.ECDSA_USING_P384_CURVE_AND_SHA384, seats.mint.key.getPrivateKey(), "lease+jwt");
        assertRefusedAndReleased();
    }

    @Test
    void refusesAWrongType() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor(leaseId, exp),
                AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256, seats.mint.key.getPrivateKey(), "JWT");
        assertRefusedAndReleased();
    }

    @Test
    void refusesAWrongAudience() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(TokenMint.claims(leaseId, "other-product",
                FakeSeatService.ISSUER, exp));
        assertRefusedAndReleased();
    }

    @Test
    void refusesAWrongIssuer() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(TokenMint.claims(leaseId, FakeSeatService.PRODUCT,
                "https://evil.test", exp));
        assertRefusedAndReleased();
    }

    @Test
    void refusesATokenOfAnotherLease() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor("lease_other", exp));
        assertRefusedAndReleased();
    }

    @Test
    void refusesATokenWithoutExpiry() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(FakeSeatService.claimsFor(leaseId, null));
        assertRefusedAndReleased();
    }

    @Test
    void refusesATamperedPayload() {
        seats.tokens = (leaseId, exp) -> {
            String[] parts = seats.mint.sign(FakeSeatService.claimsFor(leaseId, exp)).split("\\.");
            JwtClaims other = FakeSeatService.claimsFor(leaseId, exp.plusSeconds(86_400));
            String payload = java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(other.toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return parts[0] + "." + payload + "." + parts[2];
        };
        assertRefusedAndReleased();
    }

    @Test
    void refusesARenewalWithABadTokenAndReleasesTheSeat() {
        Lease lease = client.acquireSeat();
        seats.tokens = (leaseId, exp) -> new TokenMint("key-1").sign(FakeSeatService.claimsFor(leaseId, exp));
        assertThrows(LeaseVerificationException.class, () -> client.renewSeat(lease));
        assertEquals(List.of("acquire", "renew lease_1", "release lease_1"), seats.calls);
    }

    @Test
    void refetchesTheJwksOnceForAnUnknownKid() {
        client.acquireSeat();
        TokenMint rotated = new TokenMint("key-2");
        seats.published.add(rotated);
        seats.tokens = (leaseId, exp) -> rotated.sign(FakeSeatService.claimsFor(leaseId, exp));

        client.renewSeat("lease_1");
        client.renewSeat("lease_1");

        assertEquals(2, seats.jwksFetches.get(), "one fetch at first use, one refresh for the new kid");
    }

    @Test
    void refusesAKidThatIsNotPublishedEvenAfterTheRefresh() {
        client.acquireSeat();
        TokenMint unpublished = new TokenMint("key-9");
        seats.tokens = (leaseId, exp) -> unpublished.sign(FakeSeatService.claimsFor(leaseId, exp));

        LeaseVerificationException e = assertThrows(LeaseVerificationException.class, () -> client.renewSeat("lease_1"));
        assertEquals(2, seats.jwksFetches.get(), "exactly one refresh");
        assertTrue(e.getMessage().contains("No published ES256 key with kid key-9"), e.getMessage());
    }

    @Test
    void acceptsAPublishedKeyThatStatesNeitherUseNorAlgorithm() {
        TokenMint plain = new TokenMint("key-2");
        plain.key.setUse(null);
        plain.key.setAlgorithm(null);
        seats.published.set(0, plain);
        seats.tokens = (leaseId, exp) -> plain.sign(FakeSeatService.claimsFor(leaseId, exp));

        assertEquals("lease_1", client.acquireSeat().leaseId(), "use and alg are optional in a JWK (RFC 7517)");
    }

    @Test
    void refusesATokenWithoutAKidWithoutAskingForTheJwks() {
        seats.tokens = (leaseId, exp) -> {
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(FakeSeatService.claimsFor(leaseId, exp).toJson());
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
            jws.setHeader("typ", "lease+jwt");
            jws.setKey(seats.mint.key.getPrivateKey());
            try {
                return jws.getCompactSerialization();
            } catch (JoseException e) {
                throw new IllegalStateException(e);
            }
        };
        LeaseVerificationException e = assertThrows(LeaseVerificationException.class, client::acquireSeat);
        assertTrue(e.getMessage().contains("no kid"), e.getMessage());
        assertEquals(0, seats.jwksFetches.get());
        assertEquals(List.of("acquire", "release lease_1"), seats.calls, "the refused seat is given back");
    }

    @Test
    void verifiesWithAnEmbeddedKeyWithoutAskingForTheJwks() {
        KeyrightClient embedded = clientBuilder().verifyWith(seats.mint.key.getPublicKey()).build();
        embedded.acquireSeat();
        assertEquals(0, seats.jwksFetches.get());

        TokenMint published = new TokenMint("key-2");
        seats.published.add(published);
        seats.tokens = (leaseId, exp) -> published.sign(FakeSeatService.claimsFor(leaseId, exp));
        assertThrows(LeaseVerificationException.class, () -> embedded.renewSeat("lease_1"),
                "only the embedded key counts, whatever the server publishes");
    }

    @Test
    void readsAnEmbeddedKeyFromPem() {
        String pem = "-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder()
                .encodeToString(seats.mint.key.getPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        clientBuilder().verifyWithPem(pem).build().acquireSeat();
        assertEquals(0, seats.jwksFetches.get());
    }

    @Test
    void doesNotJudgeExpiryByTheWallClock() {
        // a token whose exp is long past by this machine's clock still verifies: how long a lease
        // may be used is decided by the monotonic deadline from the request, not by the wall clock
        Instant longAgo = Instant.parse("2001-01-01T00:00:00Z");
        seats.tokens = (leaseId, exp) -> {
            JwtClaims claims = FakeSeatService.claimsFor(leaseId, longAgo);
            claims.setIssuedAt(org.jose4j.jwt.NumericDate.fromSeconds(longAgo.getEpochSecond() - 120));
            return seats.mint.sign(claims);
        };
        assertEquals("lease_1", client.acquireSeat().leaseId());
    }

    @Test
    void checksNoIssuerWhenNoneIsConfigured() {
        seats.tokens = (leaseId, exp) -> seats.mint.sign(TokenMint.claims(leaseId, FakeSeatService.PRODUCT,
                "https://another-issuer.test", exp));
        KeyrightClient anyIssuer = KeyrightClient.builder().server(server.uri()).product(FakeSeatService.PRODUCT)
                .licenseKey(FakeSeatService.LICENSE_KEY).clientInstanceId("inst-test").build();
        assertEquals("lease_1", anyIssuer.acquireSeat().leaseId());
    }

    @Test
    void refusesAPublishedKeyMeantForAnotherUseOrAlgorithm() {
        seats.mint.key.setUse("enc");
        assertRefusedAndReleased();

        seats.calls.clear();
        seats.mint.key.setUse("sig");
        seats.mint.key.setAlgorithm("ES384");
        KeyrightClient fresh = clientBuilder().build();
        assertThrows(LeaseVerificationException.class, fresh::acquireSeat, "a key published for ES384 does not verify ES256");
    }
}
