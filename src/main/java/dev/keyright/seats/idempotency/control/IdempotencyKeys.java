package dev.keyright.seats.idempotency.control;

import java.util.Optional;

/**
 * Reads an {@code Idempotency-Key} header: the structured-field string form ({@code "abc"}) and the
 * bare form ({@code abc}) are the same key. A key is 1 to 255 printable ASCII characters; a bare key
 * holds no {@code "}, and a value that opens a quoted string must close it.
 */
public final class IdempotencyKeys {

    public static final int MAX_LENGTH = 255;

    private IdempotencyKeys() {
    }

    /** The key, or empty when the header value is not a valid key. */
    public static Optional<String> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.startsWith("\"")) {
            if (value.length() < 2 || !value.endsWith("\"")) {
                return Optional.empty(); // an unterminated quoted string
            }
            return unquote(value.substring(1, value.length() - 1)).filter(IdempotencyKeys::valid);
        }
        return Optional.of(value).filter(IdempotencyKeys::valid).filter(key -> key.indexOf('"') < 0);
    }

    /** sf-string: {@code \"} and {@code \\} are the only escapes; a bare quote inside is invalid. */
    private static Optional<String> unquote(String inner) {
        StringBuilder key = new StringBuilder(inner.length());
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '\\') {
                if (i + 1 >= inner.length() || (inner.charAt(i + 1) != '"' && inner.charAt(i + 1) != '\\')) {
                    return Optional.empty();
                }
                key.append(inner.charAt(++i));
            } else if (c == '"') {
                return Optional.empty();
            } else {
                key.append(c);
            }
        }
        return Optional.of(key.toString());
    }

    private static boolean valid(String key) {
        return !key.isEmpty() && key.length() <= MAX_LENGTH && key.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
    }
}
