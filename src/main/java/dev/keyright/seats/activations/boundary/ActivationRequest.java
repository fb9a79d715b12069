package dev.keyright.seats.activations.boundary;

import dev.keyright.seats.activations.entity.Activation;
import dev.keyright.seats.leases.boundary.AcquireRequest;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.web.RequestRecords;
import dev.keyright.seats.web.Text;
import jakarta.json.JsonObject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** An activation: the product and license key it names, the machine's fingerprint, and what it reports for display. */
public record ActivationRequest(String product, String licenseKey, String fingerprint, String user, String host) {

    /** The body of {@code POST /v1/activations} as it arrives (API.md), judged by its annotations. */
    public record Body(
            @NotNull(message = "is required")
            @Text(max = License.PRODUCT_MAX_LENGTH, pattern = License.PRODUCT_PATTERN, rule = License.PRODUCT_RULE)
            String product,
            @NotNull(message = "is required")
            @Text(max = 128, pattern = AcquireRequest.LICENSE_KEY_PATTERN, rule = AcquireRequest.LICENSE_KEY_RULE)
            String licenseKey,
            @NotNull(message = "is required")
            @Text(max = 128, pattern = Activation.FINGERPRINT_PATTERN, rule = Activation.FINGERPRINT_RULE)
            String fingerprint,
            @Valid AcquireRequest.Metadata metadata) {
    }

    public static ActivationRequest from(JsonObject json) {
        Body body = RequestRecords.bind(json, Body.class);
        AcquireRequest.Metadata metadata = body.metadata() != null ? body.metadata() : new AcquireRequest.Metadata(null, null);
        return new ActivationRequest(body.product(), body.licenseKey(), body.fingerprint(), metadata.user(), metadata.host());
    }
}
