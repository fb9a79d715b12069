package dev.keyright.seats.web;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Other spellings of one canonical path, as an attacker would try them against a URL-pattern guard:
 * path parameters on each segment, percent-encoded {@code ;}, {@code /} and {@code .}, empty and dot
 * segments, case variants, encoded letters, backslashes and trailing characters.
 */
final class PathVariants {

    private PathVariants() {
    }

    static List<String> of(String canonical) {
        int query = canonical.indexOf('?');
        String path = query < 0 ? canonical : canonical.substring(0, query);
        String suffix = query < 0 ? "" : canonical.substring(query);
        boolean slashEnded = path.endsWith("/") && path.length() > 1;
        String[] segments = (slashEnded ? path.substring(1, path.length() - 1) : path.substring(1)).split("/");
        Set<String> variants = new LinkedHashSet<>();
        for (int i = 0; i < segments.length; i++) {
            for (String parameter : List.of(";x", ";", "%3Bx", "%3b", ";jsessionid=1")) {
                variants.add(join(segments, i, segments[i] + parameter, slashEnded));
            }
            variants.add(join(segments, i, "." + "/" + segments[i], slashEnded));
            variants.add(join(segments, i, "%2e/" + segments[i], slashEnded));
            variants.add(join(segments, i, "x/../" + segments[i], slashEnded));
            variants.add(join(segments, i, "..;/" + segments[i], slashEnded));
            variants.add(join(segments, i, segments[i] + "%09", slashEnded));
            variants.add(join(segments, i, "x/%2E%2E/" + segments[i], slashEnded));
            variants.add(join(segments, i, "/" + segments[i], slashEnded));
            variants.add(join(segments, i, "%" + Integer.toHexString(segments[i].charAt(0)) + segments[i].substring(1), slashEnded));
            String upper = segments[i].toUpperCase(Locale.ROOT);
            if (!upper.equals(segments[i])) {
                variants.add(join(segments, i, upper, slashEnded));
            }
        }
        for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
            for (String encoded : List.of("%2F", "%2f", "\\", "%5C")) {
                variants.add(path.substring(0, slash) + encoded + path.substring(slash + 1));
            }
        }
        for (String trailing : List.of("/", ";", "%20", "%00", ".", "~", "%2F", "/.", "/..", "%3B")) {
            variants.add(path + trailing);
        }
        variants.add("/" + path);
        variants.add("/;x" + path);
        variants.add("/." + path);
        variants.remove(path);
        List<String> all = new ArrayList<>();
        for (String variant : variants) {
            all.add(variant + suffix);
        }
        return all;
    }

    private static String join(String[] segments, int replaced, String replacement, boolean slashEnded) {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            path.append('/').append(i == replaced ? replacement : segments[i]);
        }
        return slashEnded ? path.append('/').toString() : path.toString();
    }
}
