package dev.keyright.seats.licenses.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.problems.FieldError;
import jakarta.json.Json;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The seat policies' bounds and the reservations' parsing, member by member. */
class SharingTest {

    private static List<String> fields(List<FieldError> errors) {
        return errors.stream().map(FieldError::field).toList();
    }

    @Test
    void validPoliciesHaveNoProblems() {
        Sharing sharing = new Sharing(5, 300, 2, 1, List.of(new Reservation("farm", Set.of(), Set.of("rf-01"), 2)));
        assertEquals(List.of(), sharing.problems(5));
        assertEquals(2, sharing.reservedSeats());
    }

    @Test
    void eachBoundIsNamedByItsField() {
        assertEquals(List.of("overdraftSeats"), fields(new Sharing(6, 0, null, null, List.of()).problems(5)));
        assertEquals(List.of("overdraftSeats"), fields(new Sharing(-1, 0, null, null, List.of()).problems(5)));
        assertEquals(List.of("lingerSeconds"), fields(new Sharing(0, 3_601, null, null, List.of()).problems(5)));
        assertEquals(List.of("maxPerUser"), fields(new Sharing(0, 0, 0, null, List.of()).problems(5)));
        assertEquals(List.of("maxPerHost"), fields(new Sharing(0, 0, null, 6, List.of()).problems(5)));
        assertEquals(List.of("reservations"), fields(new Sharing(0, 0, null, null, List.of(
                new Reservation("a", Set.of("u"), Set.of(), 3), new Reservation("b", Set.of(), Set.of("h"), 3))).problems(5)),
                "the sum of reserved seats above the seats is refused");
    }

    @Test
    void reservationsRoundTripThroughTheirColumn() {
        List<Reservation> reservations = List.of(new Reservation("render-farm", Set.of("ci"), Set.of("rf-01", "rf-02"), 2));
        Sharing sharing = new Sharing(0, 0, null, null, reservations);
        assertEquals(reservations, sharing.reservations());
    }

    @Test
    void malformedReservationsAreNamedWithTheirPlace() {
        List<FieldError> errors = new ArrayList<>();
        List<Reservation> parsed = Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"ok\",\"hosts\":[\"h\"],\"seats\":1},"
                        + "{\"name\":\"\",\"users\":[\"u\"],\"seats\":0,\"extra\":1},"
                        + "{\"name\":\"ok\",\"users\":[],\"hosts\":[],\"seats\":1}]")).readArray(), errors);
        assertEquals(1, parsed.size());
        assertEquals(List.of("reservations[1].extra", "reservations[1].name", "reservations[1].seats",
                "reservations[2].name", "reservations[2]"), fields(errors));
    }

    @Test
    void aHolderMatchesByUserOrHostAndCountsForTheFirstReservationOnly() {
        Reservation farm = new Reservation("farm", Set.of(), Set.of("rf-01"), 2);
        Reservation ci = new Reservation("ci", Set.of("ci"), Set.of(), 1);
        assertTrue(farm.matches("anyone", "rf-01"));
        assertFalse(farm.matches("rf-01", "laptop"), "a user name is not a host name");
        assertEquals("farm", Reservation.of(List.of(farm, ci), "ci", "rf-01").orElseThrow().name());
        assertTrue(Reservation.of(List.of(farm, ci), null, null).isEmpty());
    }
}
