package dev.keyright.seats.idempotency.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

    @Test
    void bareAndQuotedFormsAreTheSameKey() {
        assertEquals(Optional.of("8e03978e-40d5-43e8-bc93-6894a57f9324"), IdempotencyKeys.parse("8e03978e-40d5-43e8-bc93-6894a57f9324"));
        assertEquals(Optional.of("8e03978e-40d5-43e8-bc93-6894a57f9324"), IdempotencyKeys.parse("\"8e03978e-40d5-43e8-bc93-6894a57f9324\""));
        assertEquals(Optional.of("a\"b\\c"), IdempotencyKeys.parse("\"a\\\"b\\\\c\""));
    }

    @Test
    void lengthIsOneTo255() {
        assertTrue(IdempotencyKeys.parse("").isEmpty());
        assertTrue(IdempotencyKeys.parse("\"\"").isEmpty());
        assertEquals(255, IdempotencyKeys.parse("k".repeat(255)).orElseThrow().length());
        assertTrue(IdempotencyKeys.parse("k".repeat(256)).isEmpty());
        assertTrue(IdempotencyKeys.parse("\"" + "k".repeat(256) + "\"").isEmpty());
    }

    @Test
    void controlAndNonAsciiCharactersAreRefused() {
        assertTrue(IdempotencyKeys.parse("a\tb").isEmpty());
        assertTrue(IdempotencyKeys.parse("a\u0001b").isEmpty());
        assertTrue(IdempotencyKeys.parse("a\u007Fb").isEmpty());
        assertTrue(IdempotencyKeys.parse("clé").isEmpty());
    }

    @Test
    void malformedQuotedStringsAreRefused() {
        assertTrue(IdempotencyKeys.parse("\"a\"b\"").isEmpty());
        assertTrue(IdempotencyKeys.parse("\"a\\nb\"").isEmpty());
        assertTrue(IdempotencyKeys.parse("\"ab\\\"").isEmpty());
    }

    @Test
    void anUnterminatedQuotedStringAndAQuoteInABareKeyAreRefused() {
        assertTrue(IdempotencyKeys.parse("\"abc").isEmpty(), "a quoted string that is never closed");
        assertTrue(IdempotencyKeys.parse("\"").isEmpty());
        assertTrue(IdempotencyKeys.parse("abc\"").isEmpty(), "a bare key holds no quote");
        assertTrue(IdempotencyKeys.parse("a\"b").isEmpty());
        assertEquals(Optional.of("abc"), IdempotencyKeys.parse("  abc  "));
    }

    @Test
    void spaceAndTildeAreTheEdgesOfPrintableAscii() {
        assertEquals(Optional.of("a b~c"), IdempotencyKeys.parse("a b~c"));
        assertEquals(Optional.of(" ~"), IdempotencyKeys.parse("\" ~\""));
    }

    @Test
    void noHeaderIsNoKey() {
        assertTrue(IdempotencyKeys.parse(null).isEmpty());
    }
}
