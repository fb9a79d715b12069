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
    void eachBoundHoldsAtItsEdge() {
        assertEquals(List.of(), new Sharing(5, 3_600, 1, 5, List.of()).problems(5), "overdraft = seats, linger = 3600, caps 1 and seats");
        assertEquals(List.of(), new Sharing(0, 0, 5, 1, List.of()).problems(5));
        assertEquals(List.of("maxPerHost"), fields(new Sharing(0, 0, null, 0, List.of()).problems(5)));
        assertEquals(List.of("maxPerUser"), fields(new Sharing(0, 0, 6, null, List.of()).problems(5)));
        assertEquals(List.of("lingerSeconds"), fields(new Sharing(0, -1, null, null, List.of()).problems(5)));
        assertEquals(List.of(), new Sharing(0, 0, null, null, List.of(new Reservation("a", Set.of("u"), Set.of(), 5))).problems(5),
                "reserving every seat is allowed");
    }

    @Test
    void noPoliciesIsAValueWithEverythingOff() {
        Sharing none = Sharing.none();
        assertEquals(0, none.overdraftSeats());
        assertEquals(0, none.lingerSeconds());
        assertTrue(none.maxPerUser().isEmpty() && none.maxPerHost().isEmpty());
        assertEquals(List.of(), none.reservations());
        Sharing caps = new Sharing(2, 30, 3, 4, List.of());
        assertEquals(2, caps.overdraftSeats());
        assertEquals(java.util.Optional.of(3), caps.maxPerUser());
        assertEquals(java.util.Optional.of(4), caps.maxPerHost());
    }

    @Test
    void reservationMembersAreJudgedOneByOne() {
        List<FieldError> errors = new ArrayList<>();
        assertEquals(List.of(), Sharing.parseReservations(Json.createValue("x"), errors));
        assertEquals(List.of("reservations"), fields(errors));
        errors.clear();
        assertEquals(List.of(), Sharing.parseReservations(Json.createReader(new StringReader("[1]")).readArray(), errors));
        assertEquals(List.of("reservations[0]"), fields(errors));
        errors.clear();
        assertEquals(List.of(), Sharing.parseReservations(jakarta.json.JsonValue.NULL, errors), "null is none");
        assertEquals(List.of(), errors);
        List<Reservation> parsed = Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"a\",\"users\":[\"u1\",\"u2\"],\"hosts\":null,\"seats\":1000000}]")).readArray(), errors);
        assertEquals(List.of(), errors);
        assertEquals(Set.of("u1", "u2"), parsed.get(0).users());
        assertEquals(1_000_000, parsed.get(0).seats());
        Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"a\",\"users\":\"u\",\"seats\":1000001},{\"name\":\"b\",\"hosts\":[\"\"],\"seats\":1}]")).readArray(), errors);
        assertEquals(List.of("reservations[0].users", "reservations[0]", "reservations[0].seats", "reservations[1].hosts", "reservations[1]"),
                fields(errors));
        errors.clear();
        String tooMany = "[" + "{\"name\":\"r\",\"hosts\":[\"h\"],\"seats\":1},".repeat(Sharing.MAX_RESERVATIONS) + "1]";
        Sharing.parseReservations(Json.createReader(new StringReader(tooMany)).readArray(), errors);
        assertEquals(List.of("reservations"), fields(errors), "at most " + Sharing.MAX_RESERVATIONS);
        errors.clear();
        String names = "[" + "\"n\",".repeat(Sharing.MAX_NAMES) + "\"n\"]";
        Sharing.parseReservations(Json.createReader(new StringReader("[{\"name\":\"a\",\"users\":" + names + ",\"seats\":1}]")).readArray(), errors);
        assertEquals(List.of("reservations[0].users", "reservations[0]"), fields(errors));
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

    @Test
    void eachListBoundHoldsAtItsEdge() {
        List<FieldError> errors = new ArrayList<>();
        String fifty = "[" + String.join(",", java.util.stream.IntStream.range(0, Sharing.MAX_RESERVATIONS)
                .mapToObj(i -> "{\"name\":\"r" + i + "\",\"hosts\":[\"h\"],\"seats\":1}").toList()) + "]";
        assertEquals(Sharing.MAX_RESERVATIONS, Sharing.parseReservations(Json.createReader(new StringReader(fifty)).readArray(), errors).size());
        assertEquals(List.of(), errors, "50 reservations are allowed");
        String hundred = "[" + String.join(",", java.util.Collections.nCopies(Sharing.MAX_NAMES, "\"n\"")) + "]";
        String longest = "x".repeat(256);
        List<Reservation> parsed = Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"a\",\"users\":" + hundred + ",\"hosts\":[\"" + longest + "\"],\"seats\":1}]")).readArray(), errors);
        assertEquals(List.of(), errors, "100 names, and names of 256 characters, are allowed");
        assertEquals(Set.of(longest), parsed.get(0).hosts());
        Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"a\",\"hosts\":[\"" + longest + "x\"],\"seats\":1}]")).readArray(), errors);
        assertEquals(List.of("reservations[0].hosts", "reservations[0]"), fields(errors), "257 characters are too many");
    }

    @Test
    void aBadNameAfterGoodOnesIsNamedOnceNotAlsoAsAMissingOwner() {
        List<FieldError> errors = new ArrayList<>();
        Sharing.parseReservations(Json.createReader(new StringReader(
                "[{\"name\":\"a\",\"users\":[\"u1\",\"\"],\"seats\":1}]")).readArray(), errors);
        assertEquals(List.of("reservations[0].users"), fields(errors));
    }

    @Test
    void aHolderThatSaysOnlyItsUserOrOnlyItsHostIsMatchedByThatAlone() {
        Reservation both = new Reservation("both", Set.of("ci"), Set.of("rf-01"), 1);
        assertTrue(both.matches("ci", null));
        assertTrue(both.matches(null, "rf-01"));
        assertFalse(both.matches(null, null));
        assertFalse(both.matches("someone", "laptop"));
    }
}
