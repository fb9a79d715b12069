package dev.keyright.seats.licenses.boundary;

import dev.keyright.seats.licenses.entity.Reservation;
import dev.keyright.seats.licenses.entity.Sharing;
import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import dev.keyright.seats.problems.JsonProviders;
import dev.keyright.seats.web.RequestRecords;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The seat-policy members of a license body (API-v2 "Seat policies"): {@code overdraftSeats}, {@code lingerSeconds},
 * {@code maxPerUser}, {@code maxPerHost}, {@code reservations}. A member left out keeps its value; a cap or the
 * reservations given as {@code null} are removed. Their bounds against the seats are {@link Sharing}'s.
 */
public record SharingChange(Optional<Integer> overdraftSeats, Optional<Integer> lingerSeconds,
                            Optional<Optional<Integer>> maxPerUser, Optional<Optional<Integer>> maxPerHost,
                            Optional<List<Reservation>> reservations) {

    public static final Set<String> MEMBERS = Set.of("overdraftSeats", "lingerSeconds", "maxPerUser", "maxPerHost", "reservations");

    /** A license body bound: its record of the other members, and its seat-policy members. */
    record Bound<R extends Record>(R body, SharingChange sharing) {
    }

    /**
     * Binds a license body: the seat-policy members here, the others to {@code type} by {@link RequestRecords};
     * every problem of both named in one refusal, the others' first.
     */
    static <R extends Record> Bound<R> bind(JsonObject json, Class<R> type) {
        List<FieldError> errors = new ArrayList<>();
        SharingChange sharing = from(json, errors);
        R body;
        try {
            body = RequestRecords.bind(without(json), type);
        } catch (InvalidRequestException invalid) {
            errors.addAll(0, invalid.errors());
            throw new InvalidRequestException(errors);
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        return new Bound<>(body, sharing);
    }

    /** Reads the members from a body, adding what is wrong with them to {@code errors}. */
    static SharingChange from(JsonObject json, List<FieldError> errors) {
        return new SharingChange(
                whole(json, "overdraftSeats", false, errors).flatMap(v -> v),
                whole(json, "lingerSeconds", false, errors).flatMap(v -> v),
                whole(json, "maxPerUser", true, errors),
                whole(json, "maxPerHost", true, errors),
                json.containsKey("reservations")
                        ? Optional.of(Sharing.parseReservations(json.get("reservations"), errors))
                        : Optional.empty());
    }

    /** The body without these members, for the binding of the others. */
    static JsonObject without(JsonObject json) {
        var rest = JsonProviders.JSON.createObjectBuilder(json);
        MEMBERS.forEach(rest::remove);
        return rest.build();
    }

    /** These changes applied to the current rules. */
    public Sharing applyTo(Sharing current) {
        return new Sharing(overdraftSeats.orElse(current.overdraftSeats()),
                lingerSeconds.orElse(current.lingerSeconds()),
                maxPerUser.orElse(current.maxPerUser()).orElse(null),
                maxPerHost.orElse(current.maxPerHost()).orElse(null),
                reservations.orElse(current.reservations()));
    }

    public boolean isEmpty() {
        return overdraftSeats.isEmpty() && lingerSeconds.isEmpty() && maxPerUser.isEmpty() && maxPerHost.isEmpty()
                && reservations.isEmpty();
    }

    /** Absent: empty; {@code null} (where allowed): present and empty; a whole number: present with it. */
    private static Optional<Optional<Integer>> whole(JsonObject json, String name, boolean nullable, List<FieldError> errors) {
        if (!json.containsKey(name)) {
            return Optional.empty();
        }
        JsonValue value = json.get(name);
        if (value.getValueType() == JsonValue.ValueType.NULL && nullable) {
            return Optional.of(Optional.empty());
        }
        if (value instanceof JsonNumber number && number.isIntegral() && number.bigIntegerValue().bitLength() < 32) {
            return Optional.of(Optional.of(number.intValue()));
        }
        errors.add(new FieldError(name, nullable ? "must be a whole number, or null for no cap" : "must be a whole number"));
        return Optional.empty();
    }
}
