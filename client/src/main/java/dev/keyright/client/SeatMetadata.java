package dev.keyright.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The display labels of a seat holder, as the contract knows them: {@code user} and {@code host}. */
public final class SeatMetadata {

    static final int LONGEST_VALUE = 256;

    private SeatMetadata() {
    }

    /** {@code user} and {@code host} of this process, each cut to 256 characters; empty ones left out. */
    public static Map<String, String> describeThisMachine(Map<String, String> environment) {
        Map<String, String> labels = new LinkedHashMap<>();
        put(labels, "user", System.getProperty("user.name", ""));
        put(labels, "host", hostName(environment));
        return labels;
    }

    private static String hostName(Map<String, String> environment) {
        for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String name = environment.get(variable);
            if (name != null && !name.isBlank()) return name.trim();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "";
        }
    }

    private static void put(Map<String, String> labels, String name, String value) {
        if (value == null || value.isBlank()) return;
        labels.put(name, value.length() > LONGEST_VALUE ? value.substring(0, LONGEST_VALUE) : value);
    }
}
