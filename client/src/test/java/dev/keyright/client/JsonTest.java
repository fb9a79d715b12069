package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

    @Test
    void readsEveryKindOfValue() {
        Map<String, Object> object = Json.readObject(
                " { \"s\": \"x\", \"n\": -12, \"f\": 1.5e2, \"t\": true, \"no\": false, \"z\": null,"
                        + " \"a\": [1, [], {}], \"o\": {\"k\": \"v\"} } ");
        assertEquals("x", object.get("s"));
        assertEquals(-12L, object.get("n"));
        assertEquals(new BigDecimal("1.5e2"), object.get("f"));
        assertEquals(true, object.get("t"));
        assertEquals(false, object.get("no"));
        assertNull(object.get("z"));
        assertEquals(List.of(1L, List.of(), Map.of()), object.get("a"));
        assertEquals(Map.of("k", "v"), object.get("o"));
    }

    @Test
    void readsEscapes() {
        assertEquals("\"\\/\b\f\n\r\t", Json.read("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""));
        assertEquals("é€", Json.read("\"\\u00e9\\u20AC\""));
        assertEquals("😀", Json.read("\"\\ud83d\\ude00\""));
        assertEquals("ünï", Json.read("\"ünï\""));
    }

    @Test
    void keepsBigIntegersExact() {
        assertEquals(new BigDecimal("123456789012345678901234567890"), Json.read("123456789012345678901234567890"));
        assertEquals(Long.valueOf(0), Json.read("-0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{", "}", "[1,]", "{\"a\":1,}", "{a:1}", "{'a':1}", "01", "1.", ".5", "+1",
            "1e", "-", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"a\nb\"",
            "{\"a\":1} x", "[1 2]", "{\"a\" 1}", "{\"a\":1,\"a\":2}", "// c\n1", "NaN", "[1]]"})
    void refusesMalformedInput(String text) {
        assertThrows(IllegalArgumentException.class, () -> Json.read(text));
    }

    @Test
    void refusesDeepNesting() {
        String deep = "[".repeat(100) + "]".repeat(100);
        assertThrows(IllegalArgumentException.class, () -> Json.read(deep));
    }

    @Test
    void writesWhatItReads() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("s", "quote \" slash \\ nl \n tab \t ctl \u0001 é 😀");
        object.put("n", 42L);
        object.put("d", new BigDecimal("2.50"));
        object.put("b", true);
        object.put("z", null);
        object.put("a", Arrays.asList(1L, "two", null));
        object.put("o", Map.of("k", List.of()));
        String written = Json.write(object);
        assertEquals("{\"s\":\"quote \\\" slash \\\\ nl \\n tab \\t ctl \\u0001 é 😀\",\"n\":42,\"d\":2.50,"
                + "\"b\":true,\"z\":null,\"a\":[1,\"two\",null],\"o\":{\"k\":[]}}", written);
        assertEquals(object, Json.read(written));
    }

    @Test
    void refusesWhatJsonCannotSay() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }
}
