package dev.keyright.seats.licenses.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.OfflineUse;
import dev.keyright.seats.licenses.entity.Sharing;
import dev.keyright.seats.web.Timestamps;
import jakarta.json.JsonObjectBuilder;

/**
 * A license as the admin API shows it: every field of the license and its policy, in one place, so a new
 * license field is shown where it is defined. The admin views add the live pool.
 */
public final class LicenseJson {

    private LicenseJson() {
    }

    public static JsonObjectBuilder of(License license) {
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
        Sharing sharing = license.sharing();
        json.add("overdraftSeats", sharing.overdraftSeats())
                .add("lingerSeconds", sharing.lingerSeconds());
        sharing.maxPerUser().ifPresentOrElse(n -> json.add("maxPerUser", n), () -> json.addNull("maxPerUser"));
        sharing.maxPerHost().ifPresentOrElse(n -> json.add("maxPerHost", n), () -> json.addNull("maxPerHost"));
        json.add("reservations", Sharing.toJson(sharing.reservations()));
        OfflineUse offline = license.offline();
        json.add("model", offline.model().wireName())
                .add("maxBorrowHours", offline.maxBorrowHours())
                .add("offlineDays", offline.offlineDays());
        offline.maxActivations().ifPresentOrElse(n -> json.add("maxActivations", n), () -> json.addNull("maxActivations"));
        return json;
    }
}
