package dev.keyright.seats.leases.entity;

/** Who holds a seat: the install's stable id, and the user and host it reported for display. */
public record Holder(String clientInstanceId, String user, String host) {

    /** The label signed into the token's {@code sub}: user@host when known, else the install id. */
    public String label() {
        if (user != null && host != null) {
            return user + "@" + host;
        }
        return user != null ? user : host != null ? host : clientInstanceId;
    }
}
