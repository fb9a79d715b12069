package dev.keyright.seats.leases.control;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The seat count of a checkout with the overdraft, the reservations and the queue, at its boundaries. */
class SeatShareTest {

    private static SeatShare.Share share(int seats, int overdraft, long live, int keptForOthers, boolean ownReservedFree) {
        return new SeatShare.Share(seats, overdraft, live, keptForOthers, ownReservedFree);
    }

    @Test
    void withoutPoliciesASeatFitsWhileFewerThanTheSeatsAreLive() {
        assertTrue(share(2, 0, 1, 0, false).admits(0));
        assertFalse(share(2, 0, 2, 0, false).admits(0));
        assertFalse(share(2, 0, 3, 0, false).admits(0), "after lowering the seats below the live count");
    }

    @Test
    void installsAheadInTheLineTakeTheFreeSeatsFirst() {
        assertTrue(share(3, 0, 1, 0, false).admits(1));
        assertFalse(share(3, 0, 1, 0, false).admits(2));
    }

    @Test
    void theOverdraftAddsSeatsAndMarksTheGrantsBeyondTheSeats() {
        assertTrue(share(2, 1, 2, 0, false).admits(0));
        assertTrue(share(2, 1, 2, 0, false).overdraft());
        assertFalse(share(2, 1, 1, 0, false).overdraft(), "a seat within the count is no overdraft");
        assertFalse(share(2, 1, 3, 0, false).admits(0), "seats + overdraftSeats is never exceeded");
    }

    @Test
    void othersMayNotTakeSeatsAReservationKeepsForItsOwners() {
        // 5 seats, 2 kept for a render farm that holds none of them: others get 3
        assertTrue(share(5, 0, 2, 2, false).admits(0));
        assertFalse(share(5, 0, 3, 2, false).admits(0));
    }

    @Test
    void anOwnerTakesAFreeSeatOfItsReservationWhoeverWaits() {
        assertTrue(share(5, 0, 3, 0, true).admits(10));
        assertTrue(share(5, 0, 4, 0, true).admits(10));
        assertFalse(share(5, 0, 5, 0, true).admits(0), "not beyond the seats: a reservation keeps seats, it adds none");
    }
}
