package dev.keyright.client;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jose4j.json.JsonUtil;
import org.jose4j.lang.JoseException;

/**
 * What the offline store keeps for one product, as one immutable value: at most one borrowed seat and one
 * activation, each with the JWKS document it was verified with when it arrived, and {@code lastSeen}, the
 * latest wall-clock time a check passed at. One {@code lastSeen} for both: there is one clock to set back.
 */
final class OfflineState {

    static final long FORMAT = 1;

    /** A borrowed seat and the JWKS fetched when it was borrowed (null when the app embeds the key). */
    record Borrowed(BorrowedSeat seat, String jwks) {
    }

    /** An activation and the JWKS fetched when its certificate arrived (null when the app embeds the key). */
    record Activated(Activation activation, String jwks) {
    }

    private final String product;
    private final Instant lastSeen;
    private final Borrowed borrowed;
    private final Activated activated;

    private OfflineState(String product, Instant lastSeen, Borrowed borrowed, Activated activated) {
        this.product = product;
        this.lastSeen = lastSeen;
        this.borrowed = borrowed;
        this.activated = activated;
    }

    static OfflineState empty(String product) {
        return new OfflineState(product, null, null, null);
    }

    String product() {
        return product;
    }

    Optional<Instant> lastSeen() {
        return Optional.ofNullable(lastSeen);
    }

    Optional<Borrowed> borrowed() {
        return Optional.ofNullable(borrowed);
    }

    Optional<Activated> activated() {
        return Optional.ofNullable(activated);
    }

    /** Nothing left to keep: the store's file is deleted rather than written. */
    boolean isEmpty() {
        return borrowed == null && activated == null;
    }

    OfflineState withBorrowed(Borrowed next) {
        return new OfflineState(product, lastSeen, next, activated);
    }

    OfflineState withActivated(Activated next) {
        return new OfflineState(product, lastSeen, borrowed, next);
    }

    /** {@code lastSeen} moved forward to {@code now}; never back, so a clock within the tolerance gains nothing. */
    OfflineState seenAt(Instant now) {
        return lastSeen != null && !now.isAfter(lastSeen) ? this
                : new OfflineState(product, now, borrowed, activated);
    }

    String toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("format", FORMAT);
        json.put("product", product);
        if (lastSeen != null) json.put("lastSeen", lastSeen.toString());
        if (borrowed != null) json.put("borrowed", borrowedJson());
        if (activated != null) json.put("activation", activationJson());
        return JsonUtil.toJson(json) + "\n";
    }

    /** Reads a stored document; throws {@link IllegalArgumentException} naming what is wrong with it. */
    static OfflineState parse(String text) {
        JsonObject json = JsonObject.parse(text);
        if (json.getLong("format") != FORMAT) {
            throw new IllegalArgumentException("format " + json.getLong("format") + " is not " + FORMAT);
        }
        Borrowed borrowed = json.findObject("borrowed").map(b -> new Borrowed(new BorrowedSeat(
                json.getString("product"), b.getString("leaseId"), b.getInstant("borrowedUntil"), b.getString("token")),
                jwks(b))).orElse(null);
        Activated activated = json.findObject("activation").map(a -> new Activated(new Activation(
                a.getString("activationId"), a.getString("fingerprint"), a.getInstant("expiresAt"),
                a.getInstant("revalidateAfter"), a.getInt("activationsInUse"), a.getInt("maxActivations"),
                a.getString("certificate")), jwks(a))).orElse(null);
        return new OfflineState(json.getString("product"), json.findInstant("lastSeen").orElse(null), borrowed,
                activated);
    }

    private Map<String, Object> borrowedJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        BorrowedSeat seat = borrowed.seat();
        json.put("leaseId", seat.leaseId());
        json.put("borrowedUntil", seat.borrowedUntil().toString());
        json.put("token", seat.token());
        putJwks(json, borrowed.jwks());
        return json;
    }

    private Map<String, Object> activationJson() {
        Activation activation = activated.activation();
        Map<String, Object> json = new LinkedHashMap<>(activation.facts());
        json.put("certificate", activation.certificate());
        putJwks(json, activated.jwks());
        return json;
    }

    /** The JWKS as the JSON object it is, so the file reads as one document. */
    private static void putJwks(Map<String, Object> json, String jwks) {
        if (jwks == null) return;
        try {
            json.put("jwks", JsonUtil.parseJson(jwks));
        } catch (JoseException e) {
            throw new IllegalArgumentException("the JWKS is not a JSON object", e);
        }
    }

    private static String jwks(JsonObject entry) {
        return entry.findObject("jwks").map(JsonObject::toJson).orElse(null);
    }
}
