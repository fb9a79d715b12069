package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.FieldError;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a license may be used away from the server (API-v2 "Borrowing", "Node-locked activations"): its model
 * (floating seats, or one slot per machine), how long a floating seat may be borrowed, and, for a node-locked
 * license, how many machines it activates and how long one runs without reaching the server. A value embedded
 * in the license row; it owns its bounds.
 */
@Embeddable
public class OfflineUse {

    public static final int MAX_BORROW_HOURS = 720;
    public static final int MAX_OFFLINE_DAYS = 365;
    public static final int DEFAULT_OFFLINE_DAYS = 30;

    /** Floating seats (leases), or node-locked activations; fixed when the license is issued. */
    public enum Model {
        FLOATING("floating"), NODE_LOCKED("node-locked");

        private final String wireName;

        Model(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Model of(String wireName) {
            for (Model model : values()) {
                if (model.wireName.equals(wireName)) {
                    return model;
                }
            }
            throw new IllegalArgumentException("no license model " + wireName);
        }
    }

    private String model;
    @Column(name = "max_borrow_hours")
    private int maxBorrowHours;
    @Column(name = "max_activations")
    private Integer maxActivations;
    @Column(name = "offline_days")
    private int offlineDays;

    protected OfflineUse() {
    }

    public OfflineUse(Model model, int maxBorrowHours, Integer maxActivations, int offlineDays) {
        this.model = model.wireName();
        this.maxBorrowHours = maxBorrowHours;
        this.maxActivations = maxActivations;
        this.offlineDays = offlineDays;
    }

    /** A floating license that does not lend seats: a license as it was before offline use. */
    public static OfflineUse floating() {
        return new OfflineUse(Model.FLOATING, 0, null, DEFAULT_OFFLINE_DAYS);
    }

    public Model model() { return model == null ? Model.FLOATING : Model.of(model); }
    public int maxBorrowHours() { return maxBorrowHours; }
    public Optional<Integer> maxActivations() { return Optional.ofNullable(maxActivations); }
    public int offlineDays() { return offlineDays; }
    public Duration offlinePeriod() { return Duration.ofDays(offlineDays); }

    public boolean lendsSeats() {
        return model() == Model.FLOATING && maxBorrowHours > 0;
    }

    /** The problems with these values, as field/message pairs; empty when they are valid. */
    public List<FieldError> problems() {
        List<FieldError> errors = new ArrayList<>();
        if (maxBorrowHours < 0 || maxBorrowHours > MAX_BORROW_HOURS) {
            errors.add(new FieldError("maxBorrowHours", "must be between 0 and " + MAX_BORROW_HOURS));
        }
        if (offlineDays < 1 || offlineDays > MAX_OFFLINE_DAYS) {
            errors.add(new FieldError("offlineDays", "must be between 1 and " + MAX_OFFLINE_DAYS));
        }
        if (model() == Model.NODE_LOCKED) {
            if (maxActivations == null) {
                errors.add(new FieldError("maxActivations", "is required for a node-locked license"));
            } else if (maxActivations < 1 || maxActivations > Policy.MAX_SEATS) {
                errors.add(new FieldError("maxActivations", "must be between 1 and " + Policy.MAX_SEATS));
            }
            if (maxBorrowHours != 0) {
                errors.add(new FieldError("maxBorrowHours", "must be 0 on a node-locked license (it has no seats to lend)"));
            }
        } else if (maxActivations != null) {
            errors.add(new FieldError("maxActivations", "is for node-locked licenses only"));
        }
        return errors;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OfflineUse that && model().equals(that.model()) && maxBorrowHours == that.maxBorrowHours
                && Objects.equals(maxActivations, that.maxActivations) && offlineDays == that.offlineDays;
    }

    @Override
    public int hashCode() {
        return Objects.hash(model(), maxBorrowHours, maxActivations, offlineDays);
    }
}
