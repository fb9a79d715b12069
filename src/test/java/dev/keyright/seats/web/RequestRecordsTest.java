package dev.keyright.seats.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Binding a strict JSON object to a request record, judged by Bean Validation with the record's messages. */
class RequestRecordsTest {

    record Inner(@Text(max = 4) String note) {
    }

    record Outer(@NotNull(message = "is required") @Text(max = 8, pattern = "[a-z]+", rule = "must be lower-case letters") String name,
                 @Max(value = 10, message = "must be a whole number up to 10") Integer count,
                 @Valid Inner inner) {
    }

    private static List<FieldError> refusal(String json) {
        return assertThrows(InvalidRequestException.class,
                () -> RequestRecords.bind(JsonBodies.parseObject(json), Outer.class), json).errors();
    }

    @Test
    void bindsEveryKindOfMember() {
        Outer outer = RequestRecords.bind(JsonBodies.parseObject("{\"name\":\"abc\",\"count\":7,\"inner\":{\"note\":\"hi\"}}"), Outer.class);
        assertEquals(new Outer("abc", 7, new Inner("hi")), outer);
        assertEquals(new Outer("abc", null, null), RequestRecords.bind(JsonBodies.parseObject("{\"name\":\"abc\",\"inner\":null}"), Outer.class));
    }

    @Test
    void refusesWrongJsonTypesItselfInsteadOfCoercingThem() {
        assertEquals(List.of(new FieldError("name", "must be a string"), new FieldError("count", "must be a whole number"),
                new FieldError("inner", "must be an object with optional 'note'")),
                refusal("{\"name\":5,\"count\":\"7\",\"inner\":[]}"));
    }

    @Test
    void namesUnknownMembersFirstThenEachMemberOnceInTheRecordsOrder() {
        assertEquals(List.of(new FieldError("extra", "is not a known field"), new FieldError("name", "is required"),
                new FieldError("count", "must be a whole number up to 10"), new FieldError("inner.other", "is not a known field"),
                new FieldError("inner.note", "must be 1 to 4 characters")),
                refusal("{\"inner\":{\"note\":\"toolong\",\"other\":1},\"count\":11,\"extra\":true}"));
    }

    @Test
    void aNumberTooLargeForItsMemberBreaksTheMembersRange() {
        assertEquals(List.of(new FieldError("count", "must be a whole number up to 10")), refusal("{\"name\":\"a\",\"count\":99999999999}"));
    }

    @Test
    void textRulesApplyInOrderLengthThenPatternAndFreeTextHasNoControlCharacters() {
        assertEquals(List.of(new FieldError("name", "must be 1 to 8 characters")), refusal("{\"name\":\"\"}"));
        assertEquals(List.of(new FieldError("name", "must be lower-case letters")), refusal("{\"name\":\"ABC\"}"));
        assertEquals(List.of(new FieldError("inner.note", "must not contain control characters")),
                refusal("{\"name\":\"a\",\"inner\":{\"note\":\"a\\u0007\"}}"));
    }
}
