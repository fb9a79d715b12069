package dev.keyright.seats.leases.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.keyright.seats.problems.FieldError;
import dev.keyright.seats.problems.InvalidRequestException;
import java.util.List;
import org.junit.jupiter.api.Test;

class AcquireRequestTest {

    private static List<String> refusedFields(String body) {
        InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> AcquireRequest.parse(body));
        return e.errors().stream().map(FieldError::field).toList();
    }

    @Test
    void parsesAValidRequest() {
        AcquireRequest request = AcquireRequest.parse("{\"product\":\"acme-studio\",\"licenseKey\":\"ACME-1\","
                + "\"clientInstanceId\":\"inst-91a7\",\"metadata\":{\"user\":\"r.okafor\",\"host\":\"lab-ws-14\"}}");
        assertEquals("acme-studio", request.product());
        assertEquals("inst-91a7", request.holder().clientInstanceId());
        assertEquals("r.okafor@lab-ws-14", request.holder().label());
        assertNull(AcquireRequest.parse("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\"}").holder().user());
    }

    @Test
    void namesEachMissingOrMistypedField() {
        assertEquals(List.of("product", "licenseKey", "clientInstanceId"), refusedFields("{}"));
        assertEquals(List.of("product"), refusedFields("{\"product\":7,\"licenseKey\":\"K\",\"clientInstanceId\":\"i\"}"));
        assertEquals(List.of("clientInstanceId"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"a b\"}"));
        assertEquals(List.of("clientInstanceId"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"" + "i".repeat(129) + "\"}"));
        assertEquals(List.of("metadata.user"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"metadata\":{\"user\":\"" + "u".repeat(257) + "\"}}"));
        assertEquals(List.of("metadata"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"metadata\":[]}"));
    }

    @Test
    void refusesExtraFieldsDuplicatesDeepNestingAndNonObjects() {
        assertEquals(List.of("admin"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"admin\":true}"));
        assertEquals(List.of("product"), refusedFields("{\"product\":\"p\",\"product\":\"q\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\"}"));
        assertEquals(List.of("body"), refusedFields("{\"a\":" + "[".repeat(20) + "]".repeat(20) + "}"));
        assertEquals(List.of("body"), refusedFields("[1,2]"));
        assertEquals(List.of("body"), refusedFields("{\"product\":"));
        assertEquals(List.of("body"), refusedFields(""));
        assertEquals(List.of("metadata.user"), refusedFields("{\"product\":\"p\",\"licenseKey\":\"K\",\"clientInstanceId\":\"i\",\"metadata\":{\"user\":\"a\\u0000b\"}}"));
    }
}
