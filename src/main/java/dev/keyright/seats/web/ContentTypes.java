package dev.keyright.seats.web;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a request body must say it is: a well-formed media type (RFC 9110 {@code type/subtype} with
 * {@code name=value} parameters), in UTF-8 when it names a charset (or none, which for JSON means UTF-8).
 * Checked before anything reads the body, so the bytes a request's fingerprint is made of are its only
 * reading and no parser further down ever meets a header it cannot parse.
 */
final class ContentTypes {

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final Pattern MEDIA_TYPE = Pattern.compile(TOKEN + "/" + TOKEN
            + "(?:[ \\t]*;[ \\t]*" + TOKEN + "=(?:" + TOKEN + "|\"(?:[^\"\\\\\\x00-\\x1F]|\\\\.)*\"))*[ \\t]*");
    private static final Pattern CHARSET = Pattern.compile(";[ \\t]*charset=(\"?)([^\";]*)\\1", Pattern.CASE_INSENSITIVE);

    private ContentTypes() {
    }

    /** True when a body of this declared type may be read: well-formed, and UTF-8 if a charset is named. */
    static boolean acceptable(String contentType) {
        if (contentType == null || !MEDIA_TYPE.matcher(contentType).matches()) {
            return false;
        }
        Matcher charset = CHARSET.matcher(contentType);
        while (charset.find()) {
            String name = charset.group(2).toLowerCase(Locale.ROOT);
            if (!name.equals("utf-8") && !name.equals("utf8")) {
                return false;
            }
        }
        return true;
    }
}
