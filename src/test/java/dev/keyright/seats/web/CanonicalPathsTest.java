package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalPathsTest {

    @Test
    void everyRouteOfTheApiIsCanonical() {
        for (String path : List.of("/", "/admin/", "/admin", "/admin/admin.js", "/v1/seats/acquire",
                "/v1/seats/lease_0123456789abcdef0123456789abcdef/renew", "/v1/admin/licenses/lic_ab12/usage",
                "/.well-known/jwks.json", "/v1/health", "/test-support/clock/advance")) {
            assertTrue(CanonicalPaths.isCanonical(path), path);
        }
    }

    @Test
    void pathParametersAndPercentEncodingAreNeverCanonical() {
        for (String path : List.of("/v1;/admin/licenses", "/v1/admin;x/licenses", "/v1/admin/licenses;", "/;x/v1",
                "/v1/admin%3Bx/licenses", "/v1/admin%2flicenses", "/v1/%2e/admin", "/v1/%61dmin", "/v1/admin%20",
                "/v1/admin/licenses%00", "/admin/%2e", "/v1/seats/acquire;jsessionid=1")) {
            assertFalse(CanonicalPaths.isCanonical(path), path);
        }
    }

    @Test
    void emptyDotAndTrailingSegmentsAreNotCanonical() {
        for (String path : List.of("//v1/admin", "/v1//admin", "/v1/./admin", "/v1/x/../admin", "/v1/admin/.",
                "/v1/admin/..", "/v1/admin/", "/.", "/..", "/admin//", "/admin/./")) {
            assertFalse(CanonicalPaths.isCanonical(path), path);
        }
    }

    @Test
    void anythingButTheSegmentAlphabetIsRefused() {
        for (String path : List.of("", "v1/seats", "/v1\\admin", "/v1/admin licenses", "/v1/adm\u0130n", "/v1/a:b",
                "/v1/a@b", "/v1/a+b", "/v1/a'b", "/" + "a".repeat(2_048))) {
            assertFalse(CanonicalPaths.isCanonical(path), path);
        }
        assertFalse(CanonicalPaths.isCanonical(null));
        assertTrue(CanonicalPaths.isCanonical("/a.b_c~d-e/F9"));
        assertTrue(CanonicalPaths.isCanonical("/...")); // a segment of three dots is a name, not a dot segment
    }

    @Test
    void theAlphabetIncludesItsEdgesAndThePathMayBeExactlyTheLongestAllowed() {
        assertTrue(CanonicalPaths.isCanonical("/azAZ09"), "a, z, A, Z, 0 and 9 are segment characters");
        for (char justOutside : new char[] {'`', '{', '@', '[', ':'}) {
            assertFalse(CanonicalPaths.isCanonical("/a" + justOutside + "b"), "char " + (int) justOutside);
        }
        assertTrue(CanonicalPaths.isCanonical("/" + "a".repeat(2_047)), "2,048 characters in all");
    }
}
