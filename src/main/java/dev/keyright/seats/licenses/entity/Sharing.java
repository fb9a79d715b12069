package dev.keyright.seats.licenses.entity;

import static dev.keyright.seats.problems.JsonProviders.JSON;

import dev.keyright.seats.problems.FieldError;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a license's seats are shared (API-v2 "Seat policies"): overdraft, linger, per-user and per-host caps and
 * reservations. A value embedded in the license row; it owns its bounds. The checkout asks one small policy
 * class per rule ({@code leases.control}); this class only holds and judges the numbers.
 */
@Embeddable
public class Sharing {

    public static final int MAX_LINGER_SECONDS = 3_600;
    public static final int MAX_RESERVATIONS = 50;
    public static final int MAX_NAMES = 100;

    @Column(name = "overdraft_seats")
    private int overdraftSeats;
    @Column(name = "linger_seconds")
    private int lingerSeconds;
    @Column(name = "max_per_user")
    private Integer maxPerUser;
    @Column(name = "max_per_host")
    private Integer maxPerHost;
    @Column(name = "reservations")
    private String reservations;

    protected Sharing() {
    }

    public Sharing(int overdraftSeats, int lingerSeconds, Integer maxPerUser, Integer maxPerHost, List<Reservation> reservations) {
        this.overdraftSeats = overdraftSeats;
        this.lingerSeconds = lingerSeconds;
        this.maxPerUser = maxPerUser;
        this.maxPerHost = maxPerHost;
        this.reservations = reservations.isEmpty() ? null : toJson(reservations).toString();
    }

    /** No overdraft, no linger, no caps, no reservations: a license as it was before policies. */
    public static Sharing none() {
        return new Sharing(0, 0, null, null, List.of());
    }

    public int overdraftSeats() { return overdraftSeats; }
    public int lingerSeconds() { return lingerSeconds; }
    public Optional<Integer> maxPerUser() { return Optional.ofNullable(maxPerUser); }
    public Optional<Integer> maxPerHost() { return Optional.ofNullable(maxPerHost); }

    public List<Reservation> reservations() {
        if (reservations == null) {
            return List.of();
        }
        try (var reader = JSON.createReader(new StringReader(reservations))) {
            List<Reservation> list = new ArrayList<>();
            for (JsonValue value : reader.readArray()) {
                JsonObject r = value.asJsonObject();
                list.add(new Reservation(r.getString("name"), names(r.getJsonArray("users")),
                        names(r.getJsonArray("hosts")), r.getInt("seats")));
            }
            return list;
        }
    }

    /** The seats all reservations keep, together. */
    public int reservedSeats() {
        return reservations().stream().mapToInt(Reservation::seats).sum();
    }

    /** The problems with these numbers for a license of {@code seats}, as field/message pairs; empty when valid. */
    public List<FieldError> problems(int seats) {
        List<FieldError> errors = new ArrayList<>();
        if (overdraftSeats < 0 || overdraftSeats > seats) {
            errors.add(new FieldError("overdraftSeats", "must be between 0 and seats (" + seats + ")"));
        }
        if (lingerSeconds < 0 || lingerSeconds > MAX_LINGER_SECONDS) {
            errors.add(new FieldError("lingerSeconds", "must be between 0 and " + MAX_LINGER_SECONDS));
        }
        if (maxPerUser != null && (maxPerUser < 1 || maxPerUser > seats)) {
            errors.add(new FieldError("maxPerUser", "must be between 1 and seats (" + seats + "), or null for no cap"));
        }
        if (maxPerHost != null && (maxPerHost < 1 || maxPerHost > seats)) {
            errors.add(new FieldError("maxPerHost", "must be between 1 and seats (" + seats + "), or null for no cap"));
        }
        if (reservedSeats() > seats) {
            errors.add(new FieldError("reservations", "keep " + reservedSeats() + " seats together, more than seats (" + seats + ")"));
        }
        return errors;
    }

    public static JsonArray toJson(List<Reservation> reservations) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        for (Reservation r : reservations) {
            array.add(JSON.createObjectBuilder()
                    .add("name", r.name())
                    .add("users", JSON.createArrayBuilder(new java.util.TreeSet<>(r.users())))
                    .add("hosts", JSON.createArrayBuilder(new java.util.TreeSet<>(r.hosts())))
                    .add("seats", r.seats()));
        }
        return array.build();
    }

    /**
     * Reservations as the admin API receives them, judged member by member: every problem is named with its
     * place ({@code reservations[1].seats}), in {@code errors}; the valid ones are returned.
     */
    public static List<Reservation> parseReservations(JsonValue value, List<FieldError> errors) {
        List<Reservation> list = new ArrayList<>();
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return list;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            errors.add(new FieldError("reservations", "must be an array of {name, users, hosts, seats}"));
            return list;
        }
        JsonArray array = value.asJsonArray();
        if (array.size() > MAX_RESERVATIONS) {
            errors.add(new FieldError("reservations", "must have at most " + MAX_RESERVATIONS + " entries"));
            return list;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            String at = "reservations[" + i + "]";
            if (array.get(i).getValueType() != JsonValue.ValueType.OBJECT) {
                errors.add(new FieldError(at, "must be an object {name, users, hosts, seats}"));
                continue;
            }
            JsonObject r = array.get(i).asJsonObject();
            int before = errors.size();
            for (String member : r.keySet()) {
                if (!Set.of("name", "users", "hosts", "seats").contains(member)) {
                    errors.add(new FieldError(at + "." + member, "is not a known field"));
                }
            }
            String name = r.get("name") instanceof JsonString s ? s.getString() : null;
            if (name == null || !name.matches("[A-Za-z0-9._ -]{1,64}")) {
                errors.add(new FieldError(at + ".name", "must be 1 to 64 characters of letters, digits, space, '.', '_' or '-'"));
            } else if (!seen.add(name)) {
                errors.add(new FieldError(at + ".name", "is used by another reservation"));
            }
            Set<String> users = namesAt(r.get("users"), at + ".users", errors);
            Set<String> hosts = namesAt(r.get("hosts"), at + ".hosts", errors);
            if (users.isEmpty() && hosts.isEmpty()) {
                errors.add(new FieldError(at, "must name at least one user or host"));
            }
            Integer seats = r.get("seats") instanceof jakarta.json.JsonNumber n && n.isIntegral() ? n.intValue() : null;
            if (seats == null || seats < 1 || seats > Policy.MAX_SEATS) {
                errors.add(new FieldError(at + ".seats", "must be a whole number from 1 to " + Policy.MAX_SEATS));
            }
            if (errors.size() == before) {
                list.add(new Reservation(name, users, hosts, seats));
            }
        }
        return list;
    }

    private static Set<String> namesAt(JsonValue value, String field, List<FieldError> errors) {
        Set<String> names = new LinkedHashSet<>();
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return names;
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY || value.asJsonArray().size() > MAX_NAMES) {
            errors.add(new FieldError(field, "must be an array of at most " + MAX_NAMES + " names"));
            return names;
        }
        for (JsonValue name : value.asJsonArray()) {
            if (!(name instanceof JsonString s) || s.getString().isBlank() || s.getString().length() > 256) {
                errors.add(new FieldError(field, "must hold names of 1 to 256 characters"));
                return names;
            }
            names.add(s.getString());
        }
        return names;
    }

    private static Set<String> names(JsonArray array) {
        Set<String> names = new LinkedHashSet<>();
        array.forEach(v -> names.add(((JsonString) v).getString()));
        return names;
    }
}
