package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;

/** No such lease for this license (a lease of another license gets exactly this answer too). */
public class LeaseNotFoundException extends BusinessException {

    public LeaseNotFoundException() {
        super("lease-not-found", "No live lease with that id for this license.");
    }
}
