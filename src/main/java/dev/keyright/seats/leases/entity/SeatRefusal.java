package dev.keyright.seats.leases.entity;

import dev.keyright.seats.problems.BusinessException;

/**
 * A checkout refused: the pool is full, or a seat policy says no. Recorded in the usage history with its
 * problem type as the reason, after the refused transaction rolled back.
 */
public abstract class SeatRefusal extends BusinessException {

    protected SeatRefusal(String type, String detail) {
        super(type, detail);
    }
}
