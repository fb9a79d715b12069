package dev.keyright.seats.problems;

import dev.keyright.seats.database.Faults;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Everything else. A business refusal wrapped by the container is unwrapped; a row lock that could not be
 * had in time and an unreachable database are 503s with {@code Retry-After}; any other fault is logged once here and answered with a 500
 * problem that names nothing internal.
 */
@Provider
public class FaultMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(FaultMapper.class.getName());

    @Override
    public Response toResponse(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof BusinessException business) {
                return ProblemResponses.of(business);
            }
            if (cause instanceof jakarta.ws.rs.WebApplicationException web) {
                return new WebApplicationExceptionMapper().toResponse(web);
            }
        }
        if (Faults.isLockTimeout(e) || Faults.isDeadlock(e)) {
            // a renew, release or revoke that waited out the lock timeout on a row another transaction holds
            // (the checkout has its own bounded retry): busy, not broken, and nothing was changed
            LOG.fine(() -> "Row lock busy: " + Faults.rootMessage(e));
            return ProblemResponses.of(ServiceUnavailableException.leaseBusy());
        }
        if (Faults.isDatabaseUnavailable(e)) {
            LOG.warning(() -> "Database unavailable: " + Faults.rootMessage(e));
            return ProblemResponses.of(ServiceUnavailableException.databaseDown());
        }
        LOG.log(Level.SEVERE, "Unexpected server fault", e);
        return ProblemResponses.of(500);
    }
}
