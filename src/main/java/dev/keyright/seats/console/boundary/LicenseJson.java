package dev.keyright.seats.console.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.web.Timestamps;
import dev.keyright.seats.leases.boundary.Pool;
import dev.keyright.seats.licenses.entity.License;
import jakarta.json.JsonObjectBuilder;

/** A license as the admin API shows it, with its live pool. */
final class LicenseJson {

    private LicenseJson() {
    }

    static JsonObjectBuilder of(License license, Pool pool) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("licenseId", license.id())
                .add("product", license.product())
                .add("seats", license.seats())
                .add("ttlSeconds", license.ttlSeconds())
                .add("skewSeconds", (int) license.skew().toSeconds())
                .add("status", license.status().name().toLowerCase());
        license.customer().ifPresentOrElse(c -> json.add("customer", c), () -> json.addNull("customer"));
        license.notAfter().ifPresentOrElse(t -> json.add("notAfter", Timestamps.format(t)), () -> json.addNull("notAfter"));
        json.add("createdAt", Timestamps.format(license.createdAt()));
        if (pool != null) {
            json.add("pool", pool.toAdminJson());
        }
        return json;
    }
}
