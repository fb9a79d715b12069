package dev.keyright.seats.idempotency.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.configuration.KeyrightConfig;
import dev.keyright.seats.idempotency.control.LicenseBoundChecks;
import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
import dev.keyright.seats.idempotency.entity.IdempotencyRecord;
import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.persistence.PessimisticLockException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Trimming the stored answers after a committed grant never turns that grant into an error. */
class IdempotencyRecordsTest {

    private static final IdempotencyClaim CLAIM = new IdempotencyClaim("lic-1", "key-1", "fp");

    private final Logger log = Logger.getLogger(IdempotencyRecords.class.getName());
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureLog() {
        log.addHandler(capture);
        log.setUseParentHandlers(false);
    }

    @AfterEach
    void releaseLog() {
        log.removeHandler(capture);
        log.setUseParentHandlers(true);
    }

    /**
     * The install's read has a fixed row limit (part of the named query, so that it is prepared once): it must cover
     * the largest install bound the settings accept plus what one trim drops, or records would be left undropped.
     */
    @Test
    void theInstallsReadLimitCoversTheLargestBoundPlusOneDrop() {
        assertTrue(IdempotencyRecord.INSTALL_READ_LIMIT
                >= KeyrightConfig.MAX_IDEMPOTENCY_RECORDS_PER_INSTALL + LicenseBoundChecks.MAX_PERIOD);
    }

    @Test
    void whatFallsBeyondTheBoundsOfTheStoredAnswersInstallIsDropped() {
        List<String> asked = new ArrayList<>();
        List<List<String>> dropped = new ArrayList<>();
        IdempotencyRecords records = recordsWith(bounds(asked, List.of("old-1", "old-2"), dropped));

        records.keepWithinBounds(CLAIM, "install-7");

        assertEquals(List.of("lic-1/install-7"), asked);
        assertEquals(List.of(List.of("old-1", "old-2")), dropped);
        assertTrue(logged.isEmpty());
    }

    @Test
    void nothingBeyondTheBoundsBeginsNoTransactionToDrop() {
        List<String> asked = new ArrayList<>();
        List<List<String>> dropped = new ArrayList<>();
        IdempotencyRecords records = recordsWith(bounds(asked, List.of(), dropped));

        records.keepWithinBounds(CLAIM, "install-7");

        assertEquals(List.of("lic-1/install-7"), asked);
        assertEquals(List.of(), dropped, "drop (a transaction of its own) is called only with something to drop");
    }

    @Test
    void aTrimThatFailsIsLoggedAndTheCallerStillAnswers() {
        IdempotencyRecords rolledBack = recordsWith(failing(new EJBTransactionRolledbackException("deadlock")));
        IdempotencyRecords lockTimeout = recordsWith(failing(new PessimisticLockException("lock wait timeout")));

        rolledBack.keepWithinBounds(CLAIM, "install-7");
        lockTimeout.keepWithinBounds(CLAIM, "install-7");

        assertEquals(2, logged.size());
        assertTrue(logged.stream().allMatch(r -> r.getLevel() == Level.WARNING && r.getMessage().contains("lic-1")),
                () -> logged.stream().map(LogRecord::getMessage).toList().toString());
    }

    private static IdempotencyBounds bounds(List<String> asked, List<String> found, List<List<String>> dropped) {
        return new IdempotencyBounds() {
            @Override
            public List<String> beyond(IdempotencyClaim stored, String clientInstanceId) {
                asked.add(stored.licenseId() + "/" + clientInstanceId);
                return found;
            }

            @Override
            public void drop(List<String> ids) {
                dropped.add(ids);
            }
        };
    }

    private static IdempotencyBounds failing(RuntimeException failure) {
        return new IdempotencyBounds() {
            @Override
            public List<String> beyond(IdempotencyClaim stored, String clientInstanceId) {
                return List.of("old-1");
            }

            @Override
            public void drop(List<String> ids) {
                throw failure;
            }
        };
    }

    private static IdempotencyRecords recordsWith(IdempotencyBounds bounds) {
        IdempotencyRecords records = new IdempotencyRecords();
        records.bounds = bounds;
        return records;
    }
}
