package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ContentTypesTest {

    @Test
    void jsonWithoutACharsetOrInUtf8IsAccepted() {
        for (String type : List.of("application/json", "application/json; charset=UTF-8", "application/json;charset=utf-8",
                "application/json; charset=\"utf-8\"", "application/merge-patch+json", "application/json ; charset=utf8",
                "text/plain", "application/json; q=1; charset=UTF-8")) {
            assertTrue(ContentTypes.acceptable(type), type);
        }
    }

    @Test
    void anotherCharsetOrAMalformedTypeIsRefused() {
        for (String type : List.of("application/json; charset=bogus", "application/json; charset=iso-8859-1",
                "application/json; charset=utf-16", "application/json; charset=x;y", "application/json; charset=\"\"",
                "application/json;;", "application/json; charset", "json", "", "application/json; charset=utf-8; charset=latin1",
                "application/json\u0000", "application/json; a=\"unterminated")) {
            assertFalse(ContentTypes.acceptable(type), type);
        }
        assertFalse(ContentTypes.acceptable(null));
    }
}
