package dev.keyright.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WaitBudgetTest {

    @Test
    void readsDurations() throws Exception {
        assertEquals(Duration.ofSeconds(30), WaitBudget.parse("30s"));
        assertEquals(Duration.ofMinutes(5), WaitBudget.parse("5m"));
        assertEquals(Duration.ofHours(1), WaitBudget.parse("1h"));
        assertEquals(Duration.ofMinutes(90), WaitBudget.parse("1h30m"));
        assertEquals(Duration.ofMillis(500), WaitBudget.parse("500ms"));
        assertEquals(Duration.ofSeconds(45), WaitBudget.parse("45"));
        assertEquals(Duration.ofDays(2), WaitBudget.parse("2d"));
        assertEquals(Duration.ZERO, WaitBudget.parse("0"));
        assertEquals(Duration.ofMinutes(5), WaitBudget.parse("5M"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "s", "5x", "-5s", "1.5m", "5 m", "forever", "m5", "99999999999s"})
    void refusesAnythingElse(String text) {
        assertThrows(UsageException.class, () -> WaitBudget.parse(text));
    }

    @Test
    void describesDurationsForMessages() {
        assertEquals("1m30s", WaitBudget.describe(Duration.ofSeconds(90)));
        assertEquals("2h", WaitBudget.describe(Duration.ofHours(2)));
        assertEquals("1h", WaitBudget.describe(Duration.ofHours(1)));
        assertEquals("1m", WaitBudget.describe(Duration.ofMinutes(1)));
        assertEquals("500ms", WaitBudget.describe(Duration.ofMillis(500)));
    }
}
