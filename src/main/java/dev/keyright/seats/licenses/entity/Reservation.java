package dev.keyright.seats.licenses.entity;

import java.util.List;
import java.util.Set;

/**
 * Seats kept for named holders (FlexNet's RESERVE): a holder matches by the user or the host its client
 * reported. Others may not take these seats while their owners do not use them.
 */
public record Reservation(String name, Set<String> users, Set<String> hosts, int seats) {

    public Reservation {
        users = Set.copyOf(users);
        hosts = Set.copyOf(hosts);
    }

    /** Whether a holder that reported this user and host is one of this reservation's owners. */
    public boolean matches(String user, String host) {
        return (user != null && users.contains(user)) || (host != null && hosts.contains(host));
    }

    /** The first reservation a holder matches, in the license's order; a holder counts for one at most. */
    public static java.util.Optional<Reservation> of(List<Reservation> reservations, String user, String host) {
        return reservations.stream().filter(r -> r.matches(user, host)).findFirst();
    }
}
