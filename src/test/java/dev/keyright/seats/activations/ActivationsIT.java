package dev.keyright.seats.activations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Races;
import dev.keyright.seats.testing.Tables;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Node-locked activations (API-v2): one slot per machine for the activation's whole life, a certificate that
 * verifies offline with the published keys (checked here with a third-party JOSE library, Nimbus), checkout
 * serialized per license by the license row lock on MariaDB, a slot freed at once by deactivation or revoke.
 */
public class ActivationsIT extends OnTheServer {

    @Test
    void aMachineActivatesOnceAndItsCertificateVerifiesOfflineWithAThirdPartyJoseLibrary() throws Exception {
        Api api = api();
        String product = uniqueProduct("nl");
        JsonObject license = nodeLockedLicense(api, product, 2, 10);
        String key = license.getString("licenseKey");
        String fingerprint = fingerprint();

        Api.Reply first = api.activate(product, key, fingerprint);
        assertEquals(201, first.status(), first.toString());
        JsonObject activation = first.json();
        String activationId = activation.getString("activationId");
        assertEquals("/v1/activations/" + activationId, first.header("Location"));
        assertEquals(1, activation.getInt("activationsInUse"));
        assertEquals(2, activation.getInt("maxActivations"));

        SignedJWT certificate = SignedJWT.parse(activation.getString("certificate"));
        JWKSet keys = JWKSet.parse(api.send("GET", "/.well-known/jwks.json", null, Map.of()).body());
        ECKey signer = (ECKey) keys.getKeyByKeyId(certificate.getHeader().getKeyID());
        assertTrue(certificate.verify(new ECDSAVerifier(signer)), "verifies with the JWKS, offline, outside jose4j");
        assertEquals(new JOSEObjectType("activation+jwt"), certificate.getHeader().getType());
        JWTClaimsSet claims = certificate.getJWTClaimsSet();
        assertEquals(List.of(product), claims.getAudience());
        assertEquals(fingerprint, claims.getSubject());
        assertEquals(activationId, claims.getStringClaim("aid"));
        assertEquals(license.getString("licenseId"), claims.getStringClaim("lic"));
        assertEquals(Duration.ofDays(10), Duration.between(claims.getIssueTime().toInstant(), claims.getExpirationTime().toInstant()),
                "exp = iat + offlineDays");
        assertEquals(claims.getExpirationTime().toInstant(), Instant.parse(activation.getString("expiresAt")));
        assertEquals(claims.getIssueTime().toInstant().plus(Duration.ofHours(24)), Instant.parse(activation.getString("revalidateAfter")),
                "refresh after min(24 h, offlineDays / 3)");

        Api.Reply again = api.activate(product, key, fingerprint);
        assertEquals(200, again.status(), "the same machine again: " + again);
        assertEquals(activationId, again.json().getString("activationId"), "the same activation");
        assertEquals(1, again.json().getInt("activationsInUse"), "no second slot");
        Api.Reply refreshed = api.refreshActivation(key, activationId);
        assertEquals(200, refreshed.status(), refreshed.toString());
        assertEquals(activationId, refreshed.json().getString("activationId"));
    }

    @Test
    void aFullLicenseRefusesTheNextMachineUntilOneIsDeactivatedOrRevoked() {
        Api api = api();
        String product = uniqueProduct("nl-full");
        JsonObject license = nodeLockedLicense(api, product, 2, 30);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        String first = api.activate(product, key, fingerprint()).json().getString("activationId");
        String second = api.activate(product, key, fingerprint()).json().getString("activationId");

        Api.Reply full = api.activate(product, key, fingerprint());
        assertEquals(409, full.status(), full.toString());
        assertEquals("https://keyright.dev/problems/activations-exhausted", full.json().getString("type"));
        assertEquals(2, full.json().getInt("activationsInUse"));
        assertEquals(2, full.json().getInt("maxActivations"));

        assertEquals(204, api.deactivate(key, first).status());
        assertEquals(201, api.activate(product, key, fingerprint()).status(), "the slot is free at once");
        assertEquals(410, api.refreshActivation(key, first).status(), "a deactivated activation ended");
        assertEquals(410, api.deactivate(key, first).status(), "and cannot end twice");
        assertEquals(404, api.refreshActivation(key, "act_00000000000000000000000000000000").status(), "never existed");
        assertEquals(404, api.refreshActivation(key, "not-an-id").status());

        JsonObject view = api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json();
        assertEquals(2, view.getInt("activationsInUse"), view.toString());
        assertEquals(2, view.getJsonArray("activations").size());
        assertEquals(second, view.getJsonArray("activations").getJsonObject(0).getString("activationId"), "oldest first");
        assertEquals(204, api.admin("DELETE", "/v1/admin/licenses/" + licenseId + "/activations/" + second, null).status());
        assertEquals(410, api.refreshActivation(key, second).status(), "the revoked machine learns at its next refresh");
        assertEquals(404, api.admin("DELETE", "/v1/admin/licenses/" + licenseId + "/activations/" + second, null).status());
        assertEquals(201, api.activate(product, key, fingerprint()).status(), "a revoke frees the slot at once");
        assertEquals(2, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ? AND ended_at IS NULL", licenseId));
    }

    @Test
    void anActivationIsIdempotentUnderItsKeyAndRefusedOnAFloatingLicense() {
        Api api = api();
        String product = uniqueProduct("nl-idem");
        JsonObject license = nodeLockedLicense(api, product, 3, 30);
        String key = license.getString("licenseKey");
        String fingerprint = fingerprint();
        Api.Reply first = api.activate(product, key, fingerprint, Map.of("Idempotency-Key", "activate-1"));
        Api.Reply replay = api.activate(product, key, fingerprint, Map.of("Idempotency-Key", "activate-1"));
        assertEquals(201, replay.status(), "the stored answer, replayed: " + replay);
        assertEquals("true", replay.header("Idempotent-Replayed"));
        assertEquals(first.body(), replay.body(), "byte for byte");
        assertEquals(422, api.activate(product, key, fingerprint(), Map.of("Idempotency-Key", "activate-1")).status(),
                "the same key for another machine");

        String floatingProduct = uniqueProduct("fl");
        JsonObject floating = api.createLicense(floatingProduct, 2, 120, 5);
        Api.Reply wrong = api.activate(floatingProduct, floating.getString("licenseKey"), fingerprint());
        assertEquals(409, wrong.status(), wrong.toString());
        assertEquals("https://keyright.dev/problems/wrong-license-model", wrong.json().getString("type"));
        assertEquals("floating", wrong.json().getString("model"));
        assertEquals(0, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ?", floating.getString("licenseId")));
    }

    @Test
    void oneMachineActivatingWithEverNewKeysKeepsOnlyItsNewestStoredAnswers() {
        Api api = api();
        String product = uniqueProduct("nl-bound");
        JsonObject license = nodeLockedLicense(api, product, 3, 30);
        String key = license.getString("licenseKey");
        String fingerprint = fingerprint();
        for (int i = 0; i < 12; i++) {
            int status = api.activate(product, key, fingerprint, Map.of("Idempotency-Key", "again-" + i)).status();
            assertTrue(status == 201 || status == 200, "activation " + i + ": " + status);
        }
        assertEquals(8, Tables.count("SELECT COUNT(*) FROM idempotency_record WHERE license_id = ?", license.getString("licenseId")),
                "a machine keeps its newest KEYRIGHT_IDEMPOTENCY_RECORDS_PER_INSTALL (8) stored answers, as an install does");
        assertEquals("true", api.activate(product, key, fingerprint, Map.of("Idempotency-Key", "again-11")).header("Idempotent-Replayed"));
        Api.Reply dropped = api.activate(product, key, fingerprint, Map.of("Idempotency-Key", "again-0"));
        assertEquals(200, dropped.status(), "a dropped key is processed afresh: the machine's own activation");
        assertNull(dropped.header("Idempotent-Replayed"));
    }

    @Test
    void badActivationsAndLicenseBodiesAreRefusedNamingTheField() {
        Api api = api();
        String product = uniqueProduct("nl-bad");
        JsonObject license = nodeLockedLicense(api, product, 1, 30);
        Api.Reply shortPrint = api.activate(product, license.getString("licenseKey"), "too-short");
        assertEquals(400, shortPrint.status(), shortPrint.toString());
        assertEquals("fingerprint", shortPrint.json().getJsonArray("errors").getJsonObject(0).getString("field"));

        Api.Reply noMax = api.admin("POST", "/v1/admin/licenses",
                Json.createObjectBuilder().add("product", product).add("model", "node-locked").build().toString());
        assertEquals(400, noMax.status(), noMax.toString());
        Api.Reply floatingWithMax = api.admin("POST", "/v1/admin/licenses", Json.createObjectBuilder().add("product", product)
                .add("seats", 2).add("maxActivations", 2).build().toString());
        assertEquals(400, floatingWithMax.status());
        assertEquals("maxActivations", floatingWithMax.json().getJsonArray("errors").getJsonObject(0).getString("field"));
        Api.Reply modelChange = api.admin("PATCH", "/v1/admin/licenses/" + license.getString("licenseId"), "{\"model\":\"floating\"}");
        assertEquals(400, modelChange.status(), modelChange.toString());
        assertEquals("model", modelChange.json().getJsonArray("errors").getJsonObject(0).getString("field"));
        Api.Reply offline = api.admin("PATCH", "/v1/admin/licenses/" + license.getString("licenseId"), "{\"offlineDays\":366}");
        assertEquals(400, offline.status());
        assertEquals("node-locked", api.admin("GET", "/v1/admin/licenses/" + license.getString("licenseId"), null).json()
                .getString("model"), "nothing changed");
    }

    @Test
    void fiftyMachinesRacingForTenActivationsGetExactlyTenAndOneMachineRacingItselfGetsOne() throws Exception {
        Api api = api();
        String product = uniqueProduct("nl-race");
        JsonObject license = nodeLockedLicense(api, product, 10, 30);
        String key = license.getString("licenseKey");
        String licenseId = license.getString("licenseId");
        Map<Integer, Long> byStatus = Races.atOnce(50, i -> api.activate(product, key, fingerprint()).status())
                .stream().collect(Collectors.groupingBy(s -> s, Collectors.counting()));
        assertEquals(10L, byStatus.getOrDefault(201, 0L), "activated: " + byStatus);
        assertEquals(40L, byStatus.getOrDefault(409, 0L), "refused: " + byStatus);
        assertEquals(10, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ? AND ended_at IS NULL", licenseId));
        assertEquals(10, Tables.count("SELECT checkouts FROM license WHERE id = ?", licenseId),
                "every activation wrote the license row (the Galera certification guard)");

        String otherProduct = uniqueProduct("nl-self");
        JsonObject other = nodeLockedLicense(api, otherProduct, 5, 30);
        String machine = fingerprint();
        List<Api.Reply> replies = Races.atOnce(20, i -> api.activate(otherProduct, other.getString("licenseKey"), machine));
        assertEquals(1, replies.stream().filter(r -> r.status() == 201).count(), "one activation: " + replies);
        assertEquals(19, replies.stream().filter(r -> r.status() == 200).count(), "the others get it back");
        assertEquals(1, replies.stream().map(r -> r.json().getString("activationId")).distinct().count());
        assertEquals(1, Tables.count("SELECT COUNT(*) FROM activation WHERE license_id = ?", other.getString("licenseId")));
    }

    /** A node-locked license for {@code maxActivations} machines, each allowed {@code offlineDays} offline. */
    public static JsonObject nodeLockedLicense(Api api, String product, int maxActivations, int offlineDays) {
        JsonObject license = api.createLicense(Json.createObjectBuilder().add("product", product).add("model", "node-locked")
                .add("maxActivations", maxActivations).add("offlineDays", offlineDays).build());
        assertEquals("node-locked", license.getString("model"));
        assertNotEquals(0, license.getInt("seats"));
        return license;
    }

    /** A fingerprint no other machine of these tests has. */
    public static String fingerprint() {
        return "fp-" + UUID.randomUUID();
    }
}
