package dev.keyright.seats.web;

import java.util.Enumeration;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The {@code Prefer} request header (RFC 7240) as far as this API uses it: {@code wait=N}, how many seconds the
 * client is willing to have its request held. Preferences are hints: an unknown or malformed one is ignored
 * (RFC 7240 §2), a wait above {@link #MAX_WAIT_SECONDS} is served as that maximum.
 */
public final class Preferences {

    public static final String PREFER = "Prefer";
    public static final String APPLIED = "Preference-Applied";
    public static final int MAX_WAIT_SECONDS = 60;

    private Preferences() {
    }

    /** The wait asked for in every {@code Prefer} header of the request, 1 to 60 seconds; empty if none. */
    public static OptionalInt waitSeconds(Enumeration<String> headers) {
        OptionalInt wait = OptionalInt.empty();
        while (headers != null && headers.hasMoreElements()) {
            for (String preference : headers.nextElement().split(",")) {
                String token = preference.split(";", 2)[0].trim();
                int equals = token.indexOf('=');
                if (equals > 0 && token.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("wait") && wait.isEmpty()) {
                    wait = seconds(unquoted(token.substring(equals + 1).trim()));
                }
            }
        }
        return wait;
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    private static OptionalInt seconds(String value) {
        if (!value.matches("[0-9]{1,9}")) {
            return OptionalInt.empty();
        }
        int seconds = Integer.parseInt(value);
        return seconds < 1 ? OptionalInt.empty() : OptionalInt.of(Math.min(seconds, MAX_WAIT_SECONDS));
    }
}
