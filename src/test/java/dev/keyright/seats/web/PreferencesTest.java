package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** {@code Prefer: wait=N} (RFC 7240) as the acquire reads it: a hint, clamped, ignored when malformed. */
class PreferencesTest {

    private static OptionalInt waitOf(String... headers) {
        return Preferences.waitSeconds(Collections.enumeration(List.of(headers)));
    }

    @Test
    void readsTheWaitAmongOtherPreferencesInAnyHeader() {
        assertEquals(OptionalInt.of(10), waitOf("wait=10"));
        assertEquals(OptionalInt.of(10), waitOf("respond-async, WAIT = 10"));
        assertEquals(OptionalInt.of(7), waitOf("handling=lenient", "wait=\"7\"; ignored=param"));
        assertEquals(OptionalInt.of(3), waitOf("wait=3, wait=9"), "the first wait counts");
    }

    @Test
    void clampsToSixtySecondsAndIgnoresWhatIsNotAWait() {
        assertEquals(OptionalInt.of(60), waitOf("wait=3600"));
        assertEquals(OptionalInt.of(60), waitOf("wait=999999999"));
        assertEquals(OptionalInt.empty(), waitOf("wait=0"));
        assertEquals(OptionalInt.empty(), waitOf("wait=-1"));
        assertEquals(OptionalInt.empty(), waitOf("wait=ten"));
        assertEquals(OptionalInt.empty(), waitOf("wait=9999999999"), "more digits than an int: ignored, not an error");
        assertEquals(OptionalInt.empty(), waitOf("waiting=10"));
        assertEquals(OptionalInt.empty(), waitOf("return=minimal"));
        assertEquals(OptionalInt.empty(), waitOf());
        assertEquals(OptionalInt.empty(), Preferences.waitSeconds(null));
    }
}
