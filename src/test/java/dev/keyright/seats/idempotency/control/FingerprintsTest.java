package dev.keyright.seats.idempotency.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.web.JsonBodies;
import jakarta.json.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FingerprintsTest {

    private static final String PATH = "/v1/seats/acquire";

    /** The fingerprint of a body as the filter takes it: the request's one strict parse, else the raw text. */
    private static String fingerprint(String method, String path, String body) {
        Optional<JsonObject> json;
        try {
            json = Optional.of(JsonBodies.parseObject(body));
        } catch (InvalidRequestException notAnObject) {
            json = Optional.empty();
        }
        return Fingerprints.of(method, path, json, body);
    }

    @Test
    void formattingAndMemberOrderDoNotChangeTheFingerprint() {
        String a = "{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"metadata\":{\"user\":\"u\",\"host\":\"h\"}}";
        String b = "{ \"metadata\": {\"host\": \"h\", \"user\": \"u\"},\n  \"clientInstanceId\": \"i\", \"licenseKey\": \"K\", \"product\": \"p\" }";
        assertEquals(fingerprint("POST", PATH, a), fingerprint("POST", PATH, b));
    }

    @Test
    void anyDifferenceInContentMethodOrPathChangesIt() {
        String a = "{\"product\":\"p\",\"clientInstanceId\":\"i\"}";
        assertNotEquals(fingerprint("POST", PATH, a), fingerprint("POST", PATH, "{\"product\":\"p\",\"clientInstanceId\":\"j\"}"));
        assertNotEquals(fingerprint("POST", PATH, a), fingerprint("PUT", PATH, a));
        assertNotEquals(fingerprint("POST", PATH, a), fingerprint("POST", "/other", a));
    }

    @Test
    void aBodyThatIsNotJsonIsFingerprintedAsItIs() {
        assertEquals(fingerprint("POST", PATH, "not json"), fingerprint("POST", PATH, "not json"));
        assertNotEquals(fingerprint("POST", PATH, "not json"), fingerprint("POST", PATH, "not  json"));
    }

    @Test
    void objectsInsideArraysAreCanonicalTooButTheOrderOfItemsCounts() {
        String a = "{\"items\":[{\"b\":1,\"a\":2},3]}";
        String b = "{ \"items\" : [ { \"a\" : 2, \"b\" : 1 }, 3 ] }";
        assertEquals(fingerprint("POST", PATH, a), fingerprint("POST", PATH, b));
        assertNotEquals(fingerprint("POST", PATH, a), fingerprint("POST", PATH, "{\"items\":[3,{\"b\":1,\"a\":2}]}"));
    }
}
