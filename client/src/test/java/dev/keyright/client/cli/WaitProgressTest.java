package dev.keyright.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.client.SeatsExhaustedException;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class WaitProgressTest {

    @Test
    void placesInLineAreOrdinals() {
        assertEquals("1st", WaitProgress.ordinal(1));
        assertEquals("2nd", WaitProgress.ordinal(2));
        assertEquals("3rd", WaitProgress.ordinal(3));
        assertEquals("4th", WaitProgress.ordinal(4));
        assertEquals("11th", WaitProgress.ordinal(11));
        assertEquals("12th", WaitProgress.ordinal(12));
        assertEquals("13th", WaitProgress.ordinal(13));
        assertEquals("21st", WaitProgress.ordinal(21));
        assertEquals("22nd", WaitProgress.ordinal(22));
        assertEquals("23rd", WaitProgress.ordinal(23));
        assertEquals("101st", WaitProgress.ordinal(101));
        assertEquals("111th", WaitProgress.ordinal(111));
        assertEquals("112th", WaitProgress.ordinal(112));
    }

    @Test
    void timeWaitedIsMinutesAndSecondsThenHours() {
        assertEquals("0:00", WaitProgress.elapsed(Duration.ZERO));
        assertEquals("0:42", WaitProgress.elapsed(Duration.ofMillis(42_900)));
        assertEquals("1:05", WaitProgress.elapsed(Duration.ofSeconds(65)));
        assertEquals("59:59", WaitProgress.elapsed(Duration.ofSeconds(3599)));
        assertEquals("1:00:00", WaitProgress.elapsed(Duration.ofHours(1)));
        assertEquals("1:02:03", WaitProgress.elapsed(Duration.ofSeconds(3723)));
        assertEquals("26:00:00", WaitProgress.elapsed(Duration.ofHours(26)));
    }

    @Test
    void describesTheWait() {
        assertEquals("3rd in line, waiting 0:42", WaitProgress.describe(
                new SeatsExhaustedException("full", 25, 25, Duration.ZERO, OptionalInt.of(3)), Duration.ofSeconds(42)));
        assertEquals("All 25 seats are in use, waiting 1:02:03", WaitProgress.describe(
                new SeatsExhaustedException("full", 25, 25, Duration.ofSeconds(5)), Duration.ofSeconds(3723)));
    }
}
