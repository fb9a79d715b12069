package dev.keyright.seats.configuration;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A list of networks in CIDR notation ({@code 10.0.0.0/8, 2001:db8::/32}) and whether an address lies in
 * one. Only address literals are read: nothing here ever asks DNS, whatever a header says.
 */
public final class Networks {

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private final List<Network> networks;

    private Networks(List<Network> networks) {
        this.networks = List.copyOf(networks);
    }

    public static Networks none() {
        return new Networks(List.of());
    }

    /** Parses a comma-separated CIDR list; throws {@link IllegalArgumentException} naming a bad entry. */
    public static Networks parse(String list) {
        List<Network> parsed = new ArrayList<>();
        for (String entry : list.split(",")) {
            String cidr = entry.trim();
            if (cidr.isEmpty()) {
                continue;
            }
            int slash = cidr.indexOf('/');
            byte[] base = literal(slash < 0 ? cidr : cidr.substring(0, slash));
            if (base == null) {
                throw new IllegalArgumentException("'" + cidr + "' is not an address or a network in CIDR notation");
            }
            int bits = base.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(cidr.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
                if (bits < 0 || bits > base.length * 8) {
                    throw new IllegalArgumentException("'" + cidr + "' has a prefix length outside 0.." + base.length * 8);
                }
            }
            parsed.add(new Network(base, bits));
        }
        return new Networks(parsed);
    }

    public boolean contains(String address) {
        if (networks.isEmpty()) {
            return false;
        }
        byte[] bytes = literal(address);
        return bytes != null && networks.stream().anyMatch(network -> network.contains(bytes));
    }

    public boolean isEmpty() {
        return networks.isEmpty();
    }

    /** The bytes of an IPv4 or IPv6 literal, or null for anything else (a name is never resolved). */
    static byte[] literal(String text) {
        String address = text.trim();
        boolean v4 = IPV4.matcher(address).matches();
        if (!v4 && !(address.indexOf(':') >= 0 && IPV6.matcher(address).matches())) {
            return null;
        }
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }

    private record Network(byte[] base, int bits) {
        boolean contains(byte[] address) {
            if (address.length != base.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((address[i / 8] & mask) != (base[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
