package dev.keyright.seats.licenses.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LicenseRequestTest {

    private static FieldError refusal(String body) {
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> LicenseRequest.parse(body), body);
        assertEquals(1, e.errors().size(), e.errors().toString());
        return e.errors().get(0);
    }

    @Test
    void seatsAreWholeNumbersWrittenPlainly() {
        assertEquals(5, LicenseRequest.parse("{\"product\":\"p\",\"seats\":5}").seats());
        for (String number : List.of("5e0", "1E2", "5.0", "5e+0", "-0.0")) {
            FieldError error = refusal("{\"product\":\"p\",\"seats\":" + number + "}");
            assertEquals("seats", error.field(), number);
        }
    }

    @Test
    void aNumberTooLongToReadIsAFieldErrorNotAFault() {
        String digits = "9".repeat(1_101);
        assertEquals("seats", refusal("{\"product\":\"p\",\"seats\":" + digits + "}").field());
        assertEquals("x", refusal("{\"product\":\"p\",\"seats\":2,\"x\":" + digits + "}").field());
        assertEquals("seats", refusal("{\"product\":\"p\",\"seats\":" + "9".repeat(19) + "}").field());
    }

    @Test
    void notAfterIsRfc3339InUtcWithAFourDigitYear() {
        assertEquals(Optional.of(Instant.parse("2027-01-31T00:00:00Z")),
                LicenseRequest.parse("{\"product\":\"p\",\"seats\":2,\"notAfter\":\"2027-01-31T00:00:00Z\"}").notAfter());
        for (String text : List.of("+1000000000-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "99999-01-01T00:00:00Z",
                "2027-01-31T00:00:00+01:00", "2027-02-30T00:00:00Z", "2027-01-31")) {
            assertEquals("notAfter", refusal("{\"product\":\"p\",\"seats\":2,\"notAfter\":\"" + text + "\"}").field(), text);
        }
    }

    @Test
    void ttlAndSkewAreLeftToThePolicyWhichNamesTheirRealRange() {
        assertEquals(Optional.of(0), LicenseRequest.parse("{\"product\":\"p\",\"seats\":2,\"ttlSeconds\":0}").ttlSeconds(),
                "the range is the policy's to judge (2 to 86400), not the parser's");
        assertEquals("must be a whole number", refusal("{\"product\":\"p\",\"seats\":2,\"ttlSeconds\":\"x\"}").message());
        assertEquals("must be a whole number", refusal("{\"product\":\"p\",\"seats\":2,\"skewSeconds\":99999999999}").message());
        assertEquals(Optional.of(-1), LicenseChange.parse("{\"skewSeconds\":-1}").skewSeconds());
    }
}
