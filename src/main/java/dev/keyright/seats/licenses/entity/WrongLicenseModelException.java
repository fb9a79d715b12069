package dev.keyright.seats.licenses.entity;

import dev.keyright.seats.problems.BusinessException;
import java.util.Map;

/** A floating-seat call on a node-locked license, or an activation call on a floating one. */
public class WrongLicenseModelException extends BusinessException {

    private final OfflineUse.Model model;

    public WrongLicenseModelException(OfflineUse.Model model) {
        super("wrong-license-model", model == OfflineUse.Model.NODE_LOCKED
                ? "This license is node-locked: activate a machine (POST /v1/activations) instead of taking a seat."
                : "This license has floating seats: acquire a seat (POST /v1/seats/acquire) instead of activating a machine.");
        this.model = model;
    }

    @Override
    public Map<String, Object> members() {
        return Map.of("model", model.wireName());
    }
}
