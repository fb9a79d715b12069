package dev.keyright.seats.throttling.control;

import java.util.List;
import java.util.Set;

/**
 * Which address a request came from. {@code X-Forwarded-For} is believed only when the direct peer is
 * a configured trusted proxy (a load balancer); then the client is the nearest address in the chain
 * that is not itself a trusted proxy. Otherwise any client could pick its own address and dodge limits.
 */
public final class ClientAddresses {

    private final Set<String> trustedProxies;

    public ClientAddresses(Set<String> trustedProxies) {
        this.trustedProxies = Set.copyOf(trustedProxies);
    }

    public String of(String remoteAddress, String forwardedFor) {
        if (forwardedFor == null || !trustedProxies.contains(remoteAddress)) {
            return remoteAddress;
        }
        List<String> hops = List.of(forwardedFor.split(","));
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i).trim();
            if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
                return hop.length() > 64 ? hop.substring(0, 64) : hop;
            }
        }
        return remoteAddress;
    }
}
