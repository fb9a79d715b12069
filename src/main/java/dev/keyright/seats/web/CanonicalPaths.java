package dev.keyright.seats.web;

import java.util.Set;

/**
 * The one rule for request paths: every route is served on exactly one spelling of its path, so that
 * the filters (the admin's authentication among them) and the router always see the same path. A path is canonical
 * when it is {@code /} or a sequence of {@code /segment}s, each of letters, digits, {@code .}, {@code _},
 * {@code ~} or {@code -}, none of them {@code .} or {@code ..}; nothing else is: no path parameters
 * ({@code ;}), no percent-encoding at all (so no encoded {@code /}, {@code .} or {@code ;}), no empty
 * segment. The one trailing slash that names a route is the admin page's {@code /admin/}.
 */
public final class CanonicalPaths {

    /** Paths that end in a slash and are still canonical. */
    private static final Set<String> WITH_TRAILING_SLASH = Set.of("/admin/");
    private static final int MAX_LENGTH = 2_048;

    private CanonicalPaths() {
    }

    /** True when {@code rawPath} (the request URI as sent, without its query) is canonical. */
    public static boolean isCanonical(String rawPath) {
        if (rawPath == null || rawPath.isEmpty() || rawPath.length() > MAX_LENGTH || rawPath.charAt(0) != '/') {
            return false;
        }
        if (rawPath.equals("/") || WITH_TRAILING_SLASH.contains(rawPath)) {
            return true;
        }
        int start = 1;
        while (start <= rawPath.length()) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) {
                end = rawPath.length();
            }
            if (!isSegment(rawPath, start, end)) {
                return false;
            }
            start = end + 1;
        }
        return true;
    }

    private static boolean isSegment(String path, int start, int end) {
        if (end == start) {
            return false;
        }
        if (path.charAt(start) == '.' && (end - start == 1 || (end - start == 2 && path.charAt(start + 1) == '.'))) {
            return false;
        }
        for (int i = start; i < end; i++) {
            if (!isSegmentChar(path.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSegmentChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '~' || c == '-';
    }
}
