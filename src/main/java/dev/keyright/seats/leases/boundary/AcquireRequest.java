package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.licenses.entity.License;
import dev.keyright.seats.web.JsonBodies;
import dev.keyright.seats.web.RequestRecords;
import dev.keyright.seats.web.Text;
import jakarta.json.JsonObject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** An acquire: the product and license key it names, and who would hold the seat. */
public record AcquireRequest(String product, String licenseKey, Holder holder) {

    /** What a license key in a request body may be (a key in the {@code Authorization} header is judged alike). */
    public static final String LICENSE_KEY_PATTERN = "[\\x21-\\x7E]{1,128}";
    public static final String LICENSE_KEY_RULE = "must be 1 to 128 printable characters";
    static final String CLIENT_INSTANCE_ID_PATTERN = "[A-Za-z0-9._:-]{1,128}";
    static final String CLIENT_INSTANCE_ID_RULE = "must be 1 to 128 characters of letters, digits, '.', '_', ':' or '-'";

    /** The body of {@code POST /v1/seats/acquire} as it arrives (API.md), judged by its annotations. */
    public record Body(
            @NotNull(message = "is required")
            @Text(max = License.PRODUCT_MAX_LENGTH, pattern = License.PRODUCT_PATTERN, rule = License.PRODUCT_RULE)
            String product,
            @NotNull(message = "is required")
            @Text(max = 128, pattern = LICENSE_KEY_PATTERN, rule = LICENSE_KEY_RULE)
            String licenseKey,
            @NotNull(message = "is required")
            @Text(max = 128, pattern = CLIENT_INSTANCE_ID_PATTERN, rule = CLIENT_INSTANCE_ID_RULE)
            String clientInstanceId,
            @Valid Metadata metadata) {
    }

    /** What the client reports for display: user and host. */
    public record Metadata(@Text(max = 256) String user, @Text(max = 256) String host) {
    }

    public static AcquireRequest parse(String body) {
        return from(JsonBodies.parseObject(body));
    }

    public static AcquireRequest from(JsonObject json) {
        Body body = RequestRecords.bind(json, Body.class);
        Metadata metadata = body.metadata() != null ? body.metadata() : new Metadata(null, null);
        return new AcquireRequest(body.product(), body.licenseKey(),
                new Holder(body.clientInstanceId(), metadata.user(), metadata.host()));
    }
}
