package dev.keyright.seats.activations.boundary;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.activations.control.ActivationCertificates;
import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.web.Timestamps;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.licenses.entity.OfflineUse;
import jakarta.json.JsonObjectBuilder;
import java.util.List;

/** The activation answer of the wire contract, and the activations as the admin license view lists them. */
public final class ActivationBody {

    private ActivationBody() {
    }

    static String json(Activation activation, ActivationCertificates.Certificate certificate, long inUse, int max) {
        return JSON.createObjectBuilder()
                .add("activationId", activation.id())
                .add("certificate", certificate.jws())
                .add("fingerprint", activation.fingerprint())
                .add("activatedAt", Timestamps.format(activation.activatedAt()))
                .add("expiresAt", Timestamps.format(certificate.expiresAt()))
                .add("revalidateAfter", Timestamps.format(certificate.revalidateAfter()))
                .add("activationsInUse", inUse)
                .add("maxActivations", max)
                .build().toString();
    }

    /**
     * A node-locked license's machines, added to its admin view: {@code activationsInUse}, {@code maxActivations}
     * and {@code activations}, oldest first. A floating license gets nothing.
     */
    public static JsonObjectBuilder addTo(JsonObjectBuilder licenseJson, License license, List<Activation> live) {
        if (license.offline().model() != OfflineUse.Model.NODE_LOCKED) {
            return licenseJson;
        }
        jakarta.json.JsonArrayBuilder list = JSON.createArrayBuilder();
        live.forEach(activation -> list.add(adminView(activation)));
        return licenseJson.add("activationsInUse", live.size())
                .add("maxActivations", license.offline().maxActivations().orElse(0))
                .add("activations", list);
    }

    private static JsonObjectBuilder adminView(Activation activation) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("activationId", activation.id())
                .add("fingerprint", activation.fingerprint());
        activation.user().ifPresentOrElse(u -> json.add("user", u), () -> json.addNull("user"));
        activation.host().ifPresentOrElse(h -> json.add("host", h), () -> json.addNull("host"));
        return json.add("activatedAt", Timestamps.format(activation.activatedAt()))
                .add("refreshedAt", Timestamps.format(activation.refreshedAt()));
    }
}
