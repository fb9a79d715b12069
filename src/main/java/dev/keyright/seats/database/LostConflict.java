package dev.keyright.seats.database;

import jakarta.ejb.ApplicationException;
import jakarta.persistence.PersistenceException;

/**
 * A transaction that lost to another one on the same rows (a deadlock victim, a Galera certification loser, a
 * lock wait past its bound, an insert whose unique key a row the other committed already holds), carried out of
 * the bean as an application exception: the container rolls the transaction back and passes it on as it is,
 * without logging a stack trace for an expected, handled outcome
 * (the caller retries it or answers busy, {@link DeadlockRetry}; a start-up load that lost loads the winner's row). The database's own exception is its cause,
 * so {@link Faults} classifies it as before.
 */
@ApplicationException(rollback = true)
public class LostConflict extends PersistenceException {

    public LostConflict(RuntimeException lost) {
        super(lost.getMessage(), lost);
    }
}
