package dev.keyright.seats.idempotency.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class FingerprintsTest {

    private static final String PATH = "/v1/seats/acquire";

    @Test
    void formattingAndMemberOrderDoNotChangeTheFingerprint() {
        String a = "{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"metadata\":{\"user\":\"u\",\"host\":\"h\"}}";
        String b = "{ \"metadata\": {\"host\": \"h\", \"user\": \"u\"},\n  \"clientInstanceId\": \"i\", \"licenseKey\": \"K\", \"product\": \"p\" }";
        assertEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("POST", PATH, b));
    }

    @Test
    void anyDifferenceInContentMethodOrPathChangesIt() {
        String a = "{\"product\":\"p\",\"clientInstanceId\":\"i\"}";
        assertNotEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("POST", PATH, "{\"product\":\"p\",\"clientInstanceId\":\"j\"}"));
        assertNotEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("PUT", PATH, a));
        assertNotEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("POST", "/other", a));
    }

    @Test
    void aBodyThatIsNotJsonIsFingerprintedAsItIs() {
        assertEquals(Fingerprints.of("POST", PATH, "not json"), Fingerprints.of("POST", PATH, "not json"));
        assertNotEquals(Fingerprints.of("POST", PATH, "not json"), Fingerprints.of("POST", PATH, "not  json"));
    }

    @Test
    void objectsInsideArraysAreCanonicalTooButTheOrderOfItemsCounts() {
        String a = "{\"items\":[{\"b\":1,\"a\":2},3]}";
        String b = "{ \"items\" : [ { \"a\" : 2, \"b\" : 1 }, 3 ] }";
        assertEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("POST", PATH, b));
        assertNotEquals(Fingerprints.of("POST", PATH, a), Fingerprints.of("POST", PATH, "{\"items\":[3,{\"b\":1,\"a\":2}]}"));
    }
}
