package dev.keyright.seats.monitoring.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.leases.boundary.SeatsResource;
import org.junit.jupiter.api.Test;

class RequestTimerTest {

    @Test
    void namesARouteByItsTemplateWithoutTheTemplatesRegularExpression() throws Exception {
        assertEquals("/v1/seats/{leaseId}/renew",
                RequestTimer.template(SeatsResource.class, SeatsResource.class.getMethod("renew", String.class, String.class)));
        assertEquals("/v1/seats/{leaseId}",
                RequestTimer.template(SeatsResource.class, SeatsResource.class.getMethod("lease", String.class, String.class)));
        assertEquals("/v1/seats/pool",
                RequestTimer.template(SeatsResource.class, SeatsResource.class.getMethod("pool", String.class, String.class)));
    }
}
