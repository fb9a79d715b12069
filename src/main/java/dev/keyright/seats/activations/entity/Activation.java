package dev.keyright.seats.activations.entity;

import dev.keyright.seats.database.RowLocks;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.QueryHint;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;

/**
 * One machine's slot on a node-locked license (the seeds' other model). It does not expire: it is live until a
 * deactivation or an administrator's revoke ends it, whatever the certificate's {@code exp} (which only bounds how
 * long the machine may run without reaching the server). An ended row stays, so a late refresh is told 410.
 */
@Entity
@Table(name = "activation")
@NamedQuery(name = Activation.LOCK, query = "SELECT a FROM Activation a WHERE a.id = :id",
        hints = @QueryHint(name = RowLocks.LOCK_HINT, value = RowLocks.FOR_UPDATE))
@NamedQuery(name = Activation.COUNT_LIVE,
        query = "SELECT COUNT(a) FROM Activation a WHERE a.licenseId = :licenseId AND a.endedAt IS NULL")
@NamedQuery(name = Activation.FIND_LIVE_OF_MACHINE,
        query = "SELECT a FROM Activation a WHERE a.licenseId = :licenseId AND a.liveFingerprint = :fingerprint")
@NamedQuery(name = Activation.FIND_LIVE_OF_LICENSES,
        query = "SELECT a FROM Activation a WHERE a.licenseId IN :licenseIds AND a.endedAt IS NULL"
                + " ORDER BY a.activatedAt, a.id")
@NamedQuery(name = Activation.COUNT_LIVE_OF_LICENSES,
        query = "SELECT a.licenseId, COUNT(a) FROM Activation a WHERE a.licenseId IN :licenseIds AND a.endedAt IS NULL"
                + " GROUP BY a.licenseId")
public class Activation {

    /** The row by its key, locked: for {@link RowLocks#lock}. */
    public static final String LOCK = "Activation.lock";
    public static final String COUNT_LIVE = "Activation.countLive";
    public static final String FIND_LIVE_OF_MACHINE = "Activation.findLiveOfMachine";
    public static final String FIND_LIVE_OF_LICENSES = "Activation.findLiveOfLicenses";
    public static final String COUNT_LIVE_OF_LICENSES = "Activation.countLiveOfLicenses";

    /** What a fingerprint may be (API-v2); {@link #FINGERPRINT_RULE} says it in words. */
    public static final String FINGERPRINT_PATTERN = "[A-Za-z0-9._:-]{16,128}";
    public static final String FINGERPRINT_RULE = "must be 16 to 128 characters of letters, digits, '.', '_', ':' or '-'";

    /** How an activation ended. */
    public enum Ending { DEACTIVATED, REVOKED }

    @Id
    private String id;
    @Column(name = "license_id")
    private String licenseId;
    private String fingerprint;
    /** The fingerprint while live, null once ended: the database's one-live-activation-per-machine key. */
    @Column(name = "live_fingerprint")
    private String liveFingerprint;
    @Column(name = "holder_user")
    private String user;
    @Column(name = "holder_host")
    private String host;
    @Column(name = "activated_at")
    private long activatedAt;
    @Column(name = "refreshed_at")
    private long refreshedAt;
    @Column(name = "ended_at")
    private Long endedAt;
    @Column(name = "ended_how")
    private String endedHow;

    protected Activation() {
    }

    public Activation(String id, String licenseId, String fingerprint, String user, String host, Instant now) {
        this.id = id;
        this.licenseId = licenseId;
        this.fingerprint = fingerprint;
        this.liveFingerprint = fingerprint;
        this.user = user;
        this.host = host;
        this.activatedAt = now.toEpochMilli();
        this.refreshedAt = now.toEpochMilli();
    }

    /** The machine came back for a new certificate. */
    public void refresh(Instant now) {
        this.refreshedAt = now.toEpochMilli();
    }

    /** The slot is free from now on; the machine keeps only a certificate that runs out at its {@code exp}. */
    public void end(Ending how, Instant now) {
        this.endedAt = now.toEpochMilli();
        this.endedHow = how.name().toLowerCase();
        this.liveFingerprint = null;
    }

    public boolean isLive() {
        return endedAt == null;
    }

    public boolean belongsTo(String license) {
        return licenseId.equals(license);
    }

    public String id() { return id; }
    public String licenseId() { return licenseId; }
    public String fingerprint() { return fingerprint; }
    public Optional<String> user() { return Optional.ofNullable(user); }
    public Optional<String> host() { return Optional.ofNullable(host); }
    public Instant activatedAt() { return Instant.ofEpochMilli(activatedAt); }
    public Instant refreshedAt() { return Instant.ofEpochMilli(refreshedAt); }
    public Optional<Instant> endedAt() { return Optional.ofNullable(endedAt).map(Instant::ofEpochMilli); }
}
