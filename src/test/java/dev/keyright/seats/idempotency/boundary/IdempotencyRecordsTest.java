package dev.keyright.seats.idempotency.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.idempotency.entity.IdempotencyClaim;
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

    @Test
    void theBoundsAreKeptForTheStoredAnswersInstall() {
        List<String> kept = new ArrayList<>();
        IdempotencyRecords records = recordsWith(new IdempotencyBounds() {
            @Override
            public void keep(IdempotencyClaim stored, String clientInstanceId) {
                kept.add(stored.licenseId() + "/" + clientInstanceId);
            }
        });

        records.keepWithinBounds(CLAIM, "install-7");

        assertEquals(List.of("lic-1/install-7"), kept);
        assertTrue(logged.isEmpty());
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

    private static IdempotencyBounds failing(RuntimeException failure) {
        return new IdempotencyBounds() {
            @Override
            public void keep(IdempotencyClaim stored, String clientInstanceId) {
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
