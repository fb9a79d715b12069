package dev.keyright.seats.leases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.Test;

/** The whole client lifecycle over HTTP against MariaDB: acquire, renew, pool, release, revoke, suspension, tokens. */
class SeatLifecycleIT extends OnTheServer {

    private static String product() {
        return uniqueProduct("prod");
    }

    @Test
    void theNodeRemembersTheLeaseItGrantsSoItsFirstHeartbeatIsOneStatementAndForgetsItAtRelease() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "inst-known").json().getString("leaseId");
        assertTrue(api.serverKnowsLease(leaseId), "known from the checkout, before any heartbeat read it");
        assertEquals(200, api.renew(key, leaseId).status());
        assertEquals(204, api.release(key, leaseId).status());
        assertFalse(api.serverKnowsLease(leaseId), "a released lease is not renewed from memory");
        assertEquals(410, api.renew(key, leaseId).status());

        // A seat that lingers after its release, taken back by its install: remembered again by that checkout.
        assertEquals(200, api.admin("PATCH", "/v1/admin/licenses/" + license.getString("licenseId"), "{\"lingerSeconds\":300}").status());
        String lingering = api.acquire(product, key, "inst-back").json().getString("leaseId");
        assertEquals(204, api.release(key, lingering).status());
        assertFalse(api.serverKnowsLease(lingering));
        Api.Reply back = api.acquire(product, key, "inst-back");
        assertEquals(200, back.status(), back.toString());
        assertEquals(lingering, back.json().getString("leaseId"));
        assertTrue(api.serverKnowsLease(lingering), "known from the checkout that gave it back");
        assertEquals(200, api.renew(key, lingering).status());
    }

    @Test
    void acquireRenewPoolReleaseLifecycle() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String key = license.getString("licenseKey");

        Api.Reply acquired = api.acquire(product, key, "inst-a");
        assertEquals(201, acquired.status(), acquired.toString());
        JsonObject lease = acquired.json();
        String leaseId = lease.getString("leaseId");
        assertEquals("/v1/seats/" + leaseId, acquired.header("Location"));
        assertEquals(60, lease.getInt("ttlSeconds"));
        assertEquals(20, lease.getInt("renewAfterSeconds"));
        assertEquals(1, lease.getInt("seatsInUse"));
        assertEquals(2, lease.getInt("maxSeats"));
        assertTrue(lease.getString("expiresAt").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));

        Api.Reply renewed = api.renew(key, leaseId);
        assertEquals(200, renewed.status(), renewed.toString());
        assertEquals(leaseId, renewed.json().getString("leaseId"));
        assertNotEquals(lease.getString("token"), renewed.json().getString("token"));

        Api.Reply pool = api.pool(product, key);
        assertEquals(200, pool.status());
        assertEquals(1, pool.json().getInt("inUse"));
        assertEquals(2, pool.json().getInt("max"));
        assertEquals("user-inst-a", pool.json().getJsonArray("holders").getJsonObject(0).getString("user"));
        assertFalse(pool.body().contains(leaseId), "the pool must not reveal lease ids");
        assertFalse(pool.json().getJsonArray("holders").getJsonObject(0).containsKey("clientInstanceId"),
                "nor client instance ids, with which another install could reattach to the lease");
        assertEquals("inst-a", api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null).json()
                .getJsonObject("pool").getJsonArray("holders").getJsonObject(0).getString("clientInstanceId"),
                "the administrator sees them");

        assertEquals(204, api.release(key, leaseId).status());
        assertEquals(0, api.pool(product, key).json().getInt("inUse"));
        assertEquals(0, Tables.leasesOf(license.getString("licenseId")));
        Api.Reply again = api.release(key, leaseId);
        assertEquals(404, again.status());
        assertEquals("https://keyright.dev/problems/lease-not-found", again.json().getString("type"));
        Api.Reply renewAfterRelease = api.renew(key, leaseId);
        assertEquals(410, renewAfterRelease.status());
        assertEquals("https://keyright.dev/problems/lease-expired", renewAfterRelease.json().getString("type"));
    }

    @Test
    void theLocationOfANewSeatShowsTheLeaseToItsHolderWithoutANewToken() {
        Api api = api();
        String product = uniqueProduct("location");
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String key = license.getString("licenseKey");
        Api.Reply acquired = api.acquire(product, key, "located");
        String location = acquired.header("Location");
        String leaseId = acquired.json().getString("leaseId");
        assertEquals("/v1/seats/" + leaseId, java.net.URI.create(location).getPath());

        Api.Reply shown = api.send("GET", java.net.URI.create(location).getPath(), null, Map.of("Authorization", "License " + key));
        assertEquals(200, shown.status(), shown.toString());
        assertEquals(leaseId, shown.json().getString("leaseId"));
        assertEquals(acquired.json().getString("expiresAt"), shown.json().getString("expiresAt"));
        assertEquals("user-located", shown.json().getString("user"));
        assertFalse(shown.json().containsKey("token"), "only a renewal signs a new token");

        JsonObject other = api.createLicense(uniqueProduct("other"), 1, 60, 5);
        assertEquals(404, api.send("GET", "/v1/seats/" + leaseId, null,
                Map.of("Authorization", "License " + other.getString("licenseKey"))).status(), "another license's key sees nothing");
        assertEquals(401, api.send("GET", "/v1/seats/" + leaseId, null, Map.of()).status());
        assertEquals(404, api.send("GET", "/v1/seats/lease_00000000000000000000000000000000", null,
                Map.of("Authorization", "License " + key)).status());
        assertEquals(204, api.release(key, leaseId).status());
        Api.Reply gone = api.send("GET", "/v1/seats/" + leaseId, null, Map.of("Authorization", "License " + key));
        assertEquals(410, gone.status(), "released: " + gone);
    }

    @Test
    void anInstallAskingAgainWhileSeatsAreFreeGetsItsOwnLeaseNotASecondSeat() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 3, 60, 5);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        Api.Reply first = api.acquire(product, key, "inst-a", Map.of("Idempotency-Key", "k-first"));
        assertEquals(201, first.status());

        // seats are free, so the first look is for a new seat: the install's lease is found at the insert
        Api.Reply again = api.acquire(product, key, "inst-a", Map.of("Idempotency-Key", "k-again"));
        assertEquals(200, again.status(), again.toString());
        assertEquals(first.json().getString("leaseId"), again.json().getString("leaseId"));
        assertEquals(1, again.json().getInt("seatsInUse"));
        assertEquals(1, Tables.leasesOf(licenseId));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'GRANT'",
                licenseId), "the first look's grant was rolled back");
        Api.Reply replayed = api.acquire(product, key, "inst-a", Map.of("Idempotency-Key", "k-again"));
        assertEquals(again.body(), replayed.body(), "the 200 was stored under its key");
        assertEquals("true", replayed.header("Idempotent-Replayed"));
    }

    @Test
    void sameInstallGetsTheSameLeaseAndAFullPoolIsA409() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String key = license.getString("licenseKey");
        Api.Reply first = api.acquire(product, key, "inst-a");
        assertEquals(201, first.status());
        Api.Reply same = api.acquire(product, key, "inst-a");
        assertEquals(200, same.status(), same.toString());
        assertEquals(first.json().getString("leaseId"), same.json().getString("leaseId"));

        String before = Tables.snapshot();
        Api.Reply full = api.acquire(product, key, "inst-b");
        assertEquals(409, full.status());
        assertEquals("application/problem+json", full.contentType());
        assertEquals("https://keyright.dev/problems/seats-exhausted", full.json().getString("type"));
        assertEquals(1, full.json().getInt("seatsInUse"));
        assertEquals(1, full.json().getInt("maxSeats"));
        assertTrue(Integer.parseInt(full.header("Retry-After")) >= 1);
        assertEquals(1, Tables.leasesOf(license.getString("licenseId")));
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM lease_event WHERE license_id = ? AND kind = 'DENY'",
                license.getString("licenseId")));
        assertNotEquals(before, Tables.snapshot(), "a denial is recorded as usage history");
    }

    @Test
    void anotherLicensesLeaseIsNotFoundAndUntouched() {
        Api api = api();
        String productA = product();
        String productB = product();
        String keyA = api.createLicense(productA, 1, 60, 5).getString("licenseKey");
        String keyB = api.createLicense(productB, 1, 60, 5).getString("licenseKey");
        String leaseA = api.acquire(productA, keyA, "inst-a").json().getString("leaseId");
        String before = Tables.snapshot();

        Api.Reply renew = api.renew(keyB, leaseA);
        Api.Reply release = api.release(keyB, leaseA);
        Api.Reply unknown = api.renew(keyB, "lease_00000000000000000000000000000000");
        assertEquals(404, renew.status());
        assertEquals(404, release.status());
        assertEquals(unknown.body(), renew.body(), "another license's lease looks exactly like an unknown one");
        assertEquals(before, Tables.snapshot());
        assertEquals(200, api.renew(keyA, leaseA).status());
    }

    @Test
    void suspendedLicenseIsA403AndReactivationRestoresIt() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 3, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        assertEquals(200, api.admin("PATCH", "/v1/admin/licenses/" + id, "{\"status\":\"suspended\"}").status());
        Api.Reply refused = api.acquire(product, key, "inst-a");
        assertEquals(403, refused.status());
        assertEquals("https://keyright.dev/problems/license-suspended", refused.json().getString("type"));
        assertEquals(0, Tables.leasesOf(id));
        assertEquals(200, api.admin("PATCH", "/v1/admin/licenses/" + id, "{\"status\":\"active\"}").status());
        assertEquals(201, api.acquire(product, key, "inst-a").status());
    }

    @Test
    void adminRevokesASeatAndTheClientsNextRenewIsGone() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String leaseId = api.acquire(product, key, "inst-a").json().getString("leaseId");

        JsonObject view = api.admin("GET", "/v1/admin/licenses/" + id, null).json();
        assertEquals(1, view.getJsonObject("pool").getInt("inUse"));
        assertEquals(leaseId, view.getJsonObject("pool").getJsonArray("holders").getJsonObject(0).getString("leaseId"));
        assertFalse(view.containsKey("licenseKey"), "the key is shown once, at creation");

        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + id + "/leases/" + leaseId, null).status());
        assertEquals(410, api.renew(key, leaseId).status());
        assertEquals(0, api.pool(product, key).json().getInt("inUse"));
    }

    @Test
    void loweringSeatsRevokesNobodyButBlocksNewAcquires() {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 2, 60, 5);
        String id = license.getString("licenseId");
        String key = license.getString("licenseKey");
        String a = api.acquire(product, key, "inst-a").json().getString("leaseId");
        String b = api.acquire(product, key, "inst-b").json().getString("leaseId");
        assertEquals(200, api.admin("PATCH", "/v1/admin/licenses/" + id, "{\"seats\":1}").status());
        assertEquals(200, api.renew(key, a).status());
        assertEquals(200, api.renew(key, b).status());
        assertEquals(409, api.acquire(product, key, "inst-c").status());
        assertEquals(204, api.release(key, a).status());
        assertEquals(409, api.acquire(product, key, "inst-c").status(), "1 seat, 1 still held");
        assertEquals(204, api.release(key, b).status());
        assertEquals(201, api.acquire(product, key, "inst-c").status());
    }

    @Test
    void leaseTokensVerifyAgainstThePublishedJwks() throws Exception {
        Api api = api();
        String product = product();
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String key = license.getString("licenseKey");
        JsonObject lease = api.acquire(product, key, "inst-jwt").json();

        Api.Reply jwks = api.send("GET", "/.well-known/jwks.json", null, Map.of());
        assertEquals(200, jwks.status());
        org.jose4j.jwk.JsonWebKeySet keys = new org.jose4j.jwk.JsonWebKeySet(jwks.body());
        org.jose4j.jwk.JsonWebKey jwk = keys.getJsonWebKeys().get(0);
        assertEquals("ES256", jwk.getAlgorithm());
        assertEquals("sig", jwk.getUse());
        assertFalse(jwks.body().contains("\"d\""), "no private key material");

        org.jose4j.jwt.consumer.JwtConsumer consumer = new org.jose4j.jwt.consumer.JwtConsumerBuilder()
                .setVerificationKeyResolver(new org.jose4j.keys.resolvers.JwksVerificationKeyResolver(keys.getJsonWebKeys()))
                .setJwsAlgorithmConstraints(org.jose4j.jwa.AlgorithmConstraints.ConstraintType.PERMIT, "ES256")
                .setExpectedIssuer("keyright-seats")
                .setExpectedAudience(product)
                .setRequireExpirationTime()
                .setExpectedType(true, "lease+jwt")
                .build();
        org.jose4j.jwt.consumer.JwtContext context = consumer.process(lease.getString("token"));
        org.jose4j.jwt.JwtClaims claims = context.getJwtClaims();
        assertEquals(lease.getString("leaseId"), claims.getStringClaimValue("lid"));
        assertEquals(license.getString("licenseId"), claims.getStringClaimValue("lic"));
        assertEquals("inst-jwt", claims.getStringClaimValue("cid"));
        assertEquals("user-inst-jwt@host-1", claims.getSubject());
        assertEquals(java.time.Instant.parse(lease.getString("expiresAt")).getEpochSecond(),
                claims.getExpirationTime().getValue(), "exp is exactly the lease's expiresAt");
        assertEquals(jwk.getKeyId(), context.getJoseObjects().get(0).getKeyIdHeaderValue());

        org.jose4j.jwk.EllipticCurveJsonWebKey stranger = org.jose4j.jwk.EcJwkGenerator.generateJwk(org.jose4j.keys.EllipticCurves.P256);
        org.jose4j.jws.JsonWebSignature forged = new org.jose4j.jws.JsonWebSignature();
        forged.setPayload(claims.toJson());
        forged.setAlgorithmHeaderValue("ES256");
        forged.setKeyIdHeaderValue(jwk.getKeyId());
        forged.setKey(stranger.getPrivateKey());
        String forgedToken = forged.getCompactSerialization();
        org.junit.jupiter.api.Assertions.assertThrows(org.jose4j.jwt.consumer.InvalidJwtException.class,
                () -> consumer.process(forgedToken), "a token signed by another key is refused");
    }
}
