package dev.keyright.seats.leases.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/** A lease-signing key pair as stored: the public JWK in clear, the private key wrapped by the server secret. */
@Entity
@Table(name = "signing_key")
@NamedQuery(name = SigningKeyRecord.FIND_ALL, query = "SELECT k FROM SigningKeyRecord k ORDER BY k.createdAt, k.kid")
public class SigningKeyRecord {

    public static final String FIND_ALL = "SigningKeyRecord.findAll";

    @Id
    private String kid;
    private String algorithm;
    @Column(name = "public_jwk")
    private String publicJwk;
    @Column(name = "private_key")
    private String privateKey;
    @Column(name = "created_at")
    private long createdAt;

    protected SigningKeyRecord() {
    }

    public SigningKeyRecord(String kid, String algorithm, String publicJwk, String wrappedPrivateKey, Instant createdAt) {
        this.kid = kid;
        this.algorithm = algorithm;
        this.publicJwk = publicJwk;
        this.privateKey = wrappedPrivateKey;
        this.createdAt = createdAt.toEpochMilli();
    }

    public String kid() { return kid; }
    public String publicJwk() { return publicJwk; }
    public String wrappedPrivateKey() { return privateKey; }
}
