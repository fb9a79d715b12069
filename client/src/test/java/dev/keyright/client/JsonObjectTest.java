package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How the SDK reads a server's JSON answer (jose4j's parser, typed and strict access). */
class JsonObjectTest {

    @Test
    void readsTheMembersOfAnAnswerByType() {
        JsonObject lease = JsonObject.parse("{\"leaseId\":\"lease_1\",\"seatsInUse\":24,\"expiresAt\":\"2026-11-13T14:32:05Z\","
                + "\"holders\":[{\"user\":\"r\\u00e9\"}],\"gone\":null}");
        assertEquals("lease_1", lease.getString("leaseId"));
        assertEquals(24, lease.getInt("seatsInUse"));
        assertEquals(Instant.parse("2026-11-13T14:32:05Z"), lease.findInstant("expiresAt").orElseThrow());
        assertEquals("r\u00e9", JsonObject.of(lease.findList("holders").get(0)).getString("user"));
        assertEquals(java.util.Optional.empty(), lease.findString("gone"));
    }

 /**
     * jose4j's parser is the JOSE library's own: it tolerates a trailing comma and a missing colon
     * (the hand-written reader it replaces refused them), which no Keyright answer contains; what matters
     * for a signed answer's fields, one value per member name, it refuses.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{", "}", "[1]", "\"text\"", "1", "{a:1}", "{\"a\":1} x",
            "{\"leaseId\":\"lease_1\",\"leaseId\":\"lease_2\"}", "{\"a\":\"abc}"})
    void refusesAnythingButOneWellFormedObjectWithUniqueMembers(String text) {
        assertThrows(IllegalArgumentException.class, () -> JsonObject.parse(text));
    }

    @Test
    void refusesAMemberOfTheWrongType() {
        JsonObject answer = JsonObject.parse("{\"leaseId\":7,\"seatsInUse\":\"24\",\"expiresAt\":\"tomorrow\"}");
        assertThrows(IllegalArgumentException.class, () -> answer.getString("leaseId"));
        assertThrows(IllegalArgumentException.class, () -> answer.getLong("seatsInUse"));
        assertThrows(IllegalArgumentException.class, () -> answer.findInstant("expiresAt"));
    }
}
