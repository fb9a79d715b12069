package dev.keyright.seats.leases.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;

/** An install an administrator revoked and blocked: refused while {@code now < blockedUntil}, on every node. */
@Entity
@Table(name = "install_block")
@IdClass(InstallBlock.Key.class)
@NamedQuery(name = InstallBlock.FIND_IN_FORCE, query = "SELECT b FROM InstallBlock b"
        + " WHERE b.licenseId = :licenseId AND b.blockedUntil > :now")
public class InstallBlock {

    /** A license's blocks in force at {@code :now}: until {@code blockedUntil}, exclusive. The one place that says so. */
    public static final String FIND_IN_FORCE = "InstallBlock.findInForce";

    @Id
    @Column(name = "license_id")
    private String licenseId;
    @Id
    @Column(name = "client_instance_id")
    private String clientInstanceId;
    @Column(name = "blocked_until")
    private long blockedUntil;
    @Column(name = "blocked_at")
    private long blockedAt;

    protected InstallBlock() {
    }

    public InstallBlock(String licenseId, String clientInstanceId, Instant blockedAt, Instant blockedUntil) {
        this.licenseId = licenseId;
        this.clientInstanceId = clientInstanceId;
        this.blockedAt = blockedAt.toEpochMilli();
        this.blockedUntil = blockedUntil.toEpochMilli();
    }

    /** A later block replaces an earlier one (a block of 0 s lifts it). */
    public void extend(Instant blockedAt, Instant blockedUntil) {
        this.blockedAt = blockedAt.toEpochMilli();
        this.blockedUntil = blockedUntil.toEpochMilli();
    }

    public Instant blockedUntil() { return Instant.ofEpochMilli(blockedUntil); }
    public String clientInstanceId() { return clientInstanceId; }

    /** The primary key: one block per install of a license. */
    public static class Key implements Serializable {
        private String licenseId;
        private String clientInstanceId;

        public Key() {
        }

        public Key(String licenseId, String clientInstanceId) {
            this.licenseId = licenseId;
            this.clientInstanceId = clientInstanceId;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && java.util.Objects.equals(licenseId, that.licenseId)
                    && java.util.Objects.equals(clientInstanceId, that.clientInstanceId);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(licenseId, clientInstanceId);
        }
    }
}
