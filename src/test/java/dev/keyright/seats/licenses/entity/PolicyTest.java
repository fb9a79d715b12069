package dev.keyright.seats.licenses.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.problems.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyTest {

    private static List<String> fields(Policy policy) {
        return policy.problems(14).stream().map(FieldError::field).toList();
    }

    @Test
    void acceptsTheDefaultsAndTheSmallestAllowedValues() {
        assertTrue(new Policy(25, 120, 5).problems(14).isEmpty());
        assertTrue(new Policy(1, 2, 0).problems(14).isEmpty());
    }

    @Test
    void refusesEachOutOfRangeFieldByName() {
        assertEquals(List.of("seats"), fields(new Policy(0, 120, 5)));
        assertEquals(List.of("ttlSeconds"), fields(new Policy(1, 1, 5)));
        assertEquals(List.of("ttlSeconds"), fields(new Policy(1, 86_401, 5)));
        assertEquals(List.of("skewSeconds"), fields(new Policy(1, 120, -1)));
        assertEquals(List.of("seats", "ttlSeconds", "skewSeconds"), fields(new Policy(-1, 0, 99)));
    }

    @Test
    void skewMustStayBelowTheReapGrace() {
        assertTrue(new Policy(1, 120, 14).problems(14).isEmpty());
        assertEquals(List.of("skewSeconds"), fields(new Policy(1, 120, 15)));
    }

    @Test
    void renewAfterIsAboutAThirdOfTheTtl() {
        assertEquals(40, new Policy(1, 120, 5).renewAfterSeconds());
        assertEquals(1, new Policy(1, 2, 0).renewAfterSeconds());
    }

    @Test
    void acceptsTheLargestAllowedValuesAndNothingAbove() {
        assertTrue(new Policy(Policy.MAX_SEATS, Policy.MAX_TTL_SECONDS, 14).problems(14).isEmpty());
        assertEquals(List.of("seats"), fields(new Policy(Policy.MAX_SEATS + 1, 120, 5)));
    }

    /** An embedded value: equal when every part is, whatever instance the license row was read into. */
    @Test
    void isAValueOfItsSeatsTtlAndSkew() {
        Policy policy = new Policy(25, 120, 5);
        assertEquals(new Policy(25, 120, 5), policy);
        assertEquals(new Policy(25, 120, 5).hashCode(), policy.hashCode());
        assertNotEquals(new Policy(24, 120, 5).hashCode(), policy.hashCode(), "a hash that spreads, for sets and maps");
        assertNotEquals(new Policy(24, 120, 5), policy);
        assertNotEquals(new Policy(25, 60, 5), policy);
        assertNotEquals(new Policy(25, 120, 4), policy);
        assertNotEquals(policy, "Policy[seats=25, ttlSeconds=120, skewSeconds=5]");
        assertEquals(25, policy.seats());
        assertEquals(5, policy.skewSeconds());
        assertEquals("Policy[seats=25, ttlSeconds=120, skewSeconds=5]", policy.toString());
    }

    @Test
    void theLargestSkewStaysBelowTheReapersGrace() {
        assertEquals(14, Policy.maxSkewSeconds(java.time.Duration.ofSeconds(15)));
        assertEquals(Policy.MAX_SKEW_SECONDS, Policy.maxSkewSeconds(java.time.Duration.ofDays(1)));
    }
}
