package dev.keyright.client;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader and writer (RFC 8259). Objects read as {@code Map<String, Object>}
 * (insertion ordered), arrays as {@code List<Object>}, strings as {@code String}, integers as
 * {@code Long} (or {@code BigDecimal} when they do not fit), other numbers as {@code BigDecimal},
 * {@code true}/{@code false} as {@code Boolean} and {@code null} as {@code null}.
 * Trailing commas, comments, single quotes, leading zeros, bare control characters, lone
 * surrogate escapes, duplicate keys and trailing text are refused.
 */
public final class Json {

    private static final int MAX_DEPTH = 64;

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Reads one JSON value; throws {@link IllegalArgumentException} on anything malformed. */
    public static Object read(String text) {
        Json reader = new Json(text);
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.at != text.length()) throw reader.fail("unexpected text after the value");
        return value;
    }

    /** Reads a JSON object; anything else is refused. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readObject(String text) {
        Object value = read(text);
        if (!(value instanceof Map)) throw new IllegalArgumentException("JSON: expected an object");
        return (Map<String, Object>) value;
    }

    /** Writes maps, iterables, strings, numbers, booleans and null as compact JSON. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        writeValue(value, out);
        return out.toString();
    }

    private Object readValue(int depth) {
        if (depth > MAX_DEPTH) throw fail("nested too deeply");
        skipWhitespace();
        if (at >= text.length()) throw fail("unexpected end of input");
        char c = text.charAt(at);
        switch (c) {
            case '{': return readObject(depth);
            case '[': return readArray(depth);
            case '"': return readString();
            case 't': return readLiteral("true", Boolean.TRUE);
            case 'f': return readLiteral("false", Boolean.FALSE);
            case 'n': return readLiteral("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return readNumber();
                throw fail("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject(int depth) {
        Map<String, Object> object = new LinkedHashMap<>();
        at++;
        skipWhitespace();
        if (peek() == '}') {
            at++;
            return Collections.unmodifiableMap(object);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') throw fail("expected a string key");
            String key = readString();
            if (object.containsKey(key)) throw fail("duplicate key \"" + key + "\"");
            skipWhitespace();
            expect(':');
            object.put(key, readValue(depth + 1));
            skipWhitespace();
            char c = next();
            if (c == '}') return Collections.unmodifiableMap(object);
            if (c != ',') throw fail("expected ',' or '}'");
        }
    }

    private List<Object> readArray(int depth) {
        List<Object> array = new ArrayList<>();
        at++;
        skipWhitespace();
        if (peek() == ']') {
            at++;
            return Collections.unmodifiableList(array);
        }
        while (true) {
            array.add(readValue(depth + 1));
            skipWhitespace();
            char c = next();
            if (c == ']') return Collections.unmodifiableList(array);
            if (c != ',') throw fail("expected ',' or ']'");
        }
    }

    private String readString() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') return out.toString();
            if (c < 0x20) throw fail("control character in a string");
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"': case '\\': case '/': out.append(e); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u': out.append(readUnicodeEscape()); break;
                default: throw fail("invalid escape \\" + e);
            }
        }
    }

    private String readUnicodeEscape() {
        char high = readHex4();
        if (!Character.isSurrogate(high)) return String.valueOf(high);
        if (Character.isLowSurrogate(high) || !text.startsWith("\\u", at)) throw fail("lone surrogate");
        at += 2;
        char low = readHex4();
        if (!Character.isLowSurrogate(low)) throw fail("lone surrogate");
        return new String(new char[] {high, low});
    }

    private char readHex4() {
        if (at + 4 > text.length()) throw fail("truncated \\u escape");
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at++), 16);
            if (digit < 0) throw fail("invalid \\u escape");
            value = value * 16 + digit;
        }
        return (char) value;
    }

    private Object readNumber() {
        int start = at;
        if (peek() == '-') at++;
        if (peek() == '0') at++;
        else if (!digits()) throw fail("invalid number");
        boolean integral = true;
        if (peek() == '.') {
            at++;
            integral = false;
            if (!digits()) throw fail("invalid number");
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            integral = false;
            if (peek() == '+' || peek() == '-') at++;
            if (!digits()) throw fail("invalid number");
        }
        String number = text.substring(start, at);
        if (integral && number.length() < 19) return Long.parseLong(number);
        return new BigDecimal(number);
    }

    private boolean digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') at++;
        return at > start;
    }

    private Object readLiteral(String literal, Object value) {
        if (!text.startsWith(literal, at)) throw fail("invalid literal");
        at += literal.length();
        return value;
    }

    private void skipWhitespace() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
        if (at >= text.length()) throw fail("unexpected end of input");
        return text.charAt(at++);
    }

    private void expect(char c) {
        if (next() != c) throw fail("expected '" + c + "'");
    }

    private IllegalArgumentException fail(String why) {
        return new IllegalArgumentException("JSON: " + why + " at offset " + at);
    }

    private static void writeValue(Object value, StringBuilder out) {
        if (value == null) out.append("null");
        else if (value instanceof String) writeString((String) value, out);
        else if (value instanceof Boolean) out.append(value);
        else if (value instanceof Number) writeNumber((Number) value, out);
        else if (value instanceof Map) writeObject((Map<?, ?>) value, out);
        else if (value instanceof Iterable) writeArray((Iterable<?>) value, out);
        else throw new IllegalArgumentException("JSON: cannot write " + value.getClass().getName());
    }

    private static void writeNumber(Number number, StringBuilder out) {
        if (number instanceof Double || number instanceof Float) {
            double d = number.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("JSON: " + d);
        }
        out.append(number instanceof BigDecimal ? ((BigDecimal) number).toString() : number.toString());
    }

    private static void writeObject(Map<?, ?> object, StringBuilder out) {
        out.append('{');
        String separator = "";
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            out.append(separator);
            writeString(String.valueOf(entry.getKey()), out);
            out.append(':');
            writeValue(entry.getValue(), out);
            separator = ",";
        }
        out.append('}');
    }

    private static void writeArray(Iterable<?> array, StringBuilder out) {
        out.append('[');
        String separator = "";
        for (Object element : array) {
            out.append(separator);
            writeValue(element, out);
            separator = ",";
        }
        out.append(']');
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
