package dev.keyright.seats.leases.boundary;

/** Reads {@code Authorization: License <licenseKey>}; anything else yields no key (answered 401). */
public final class LicenseAuthorization {

    private static final String SCHEME = "License ";

    private LicenseAuthorization() {
    }

    public static String key(String header) {
        if (header == null || header.length() <= SCHEME.length()
                || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return null;
        }
        return header.substring(SCHEME.length()).trim();
    }
}
