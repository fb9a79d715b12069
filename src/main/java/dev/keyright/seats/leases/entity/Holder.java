package dev.keyright.seats.leases.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.util.Objects;

/**
 * Who holds a seat: the install's stable id, and the user and host it reported for display. A value
 * embedded in the lease and in its history rows.
 */
@Embeddable
public class Holder {

    @Column(name = "client_instance_id")
    private String clientInstanceId;
    @Column(name = "holder_user")
    private String user;
    @Column(name = "holder_host")
    private String host;

    protected Holder() {
    }

    public Holder(String clientInstanceId, String user, String host) {
        this.clientInstanceId = clientInstanceId;
        this.user = user;
        this.host = host;
    }

    public String clientInstanceId() { return clientInstanceId; }
    public String user() { return user; }
    public String host() { return host; }

    /** The label signed into the token's {@code sub}: user@host when known, else the install id. */
    public String label() {
        if (user != null && host != null) {
            return user + "@" + host;
        }
        return user != null ? user : host != null ? host : clientInstanceId;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Holder that && Objects.equals(clientInstanceId, that.clientInstanceId)
                && Objects.equals(user, that.user) && Objects.equals(host, that.host);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clientInstanceId, user, host);
    }

    @Override
    public String toString() {
        return "Holder[clientInstanceId=" + clientInstanceId + ", user=" + user + ", host=" + host + "]";
    }
}
