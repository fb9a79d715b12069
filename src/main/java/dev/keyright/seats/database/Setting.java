package dev.keyright.seats.database;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;

/**
 * A server-wide value kept in the database, such as the generated admin password's hash, or the row
 * that starting nodes lock to serialize one-time creations ({@link #START_UP_LOCK}, inserted by migration V3).
 */
@Entity
@Table(name = "setting")
public class Setting {

    /** Locked by a starting node while it looks for, and if need be creates, the signing key or the admin password. */
    public static final String START_UP_LOCK = "start-up-lock";

    /**
     * Waits for, then holds until the end of the transaction, the start-up lock: nodes starting together
     * on an empty database queue here, so exactly one creates and the others, reading after its commit,
     * find. On a database without the row (before V3) there is nothing to wait for.
     */
    public static void lockStartUp(EntityManager em) {
        em.find(Setting.class, START_UP_LOCK, LockModeType.PESSIMISTIC_WRITE);
    }

    @Id
    private String name;
    @Column(name = "setting_value")
    private String value;

    protected Setting() {
    }

    public Setting(String name, String value) {
        this.name = name;
        this.value = value;
    }

    public String value() {
        return value;
    }
}
