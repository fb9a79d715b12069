package dev.keyright.seats.configuration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NetworksTest {

    @Test
    void addressesInsideAndOutsideAPrefix() {
        Networks networks = Networks.parse("10.0.0.0/8, 192.168.4.0/22,203.0.113.9, 2001:db8::/32");
        assertTrue(networks.contains("10.255.1.2"));
        assertFalse(networks.contains("11.0.0.1"));
        assertTrue(networks.contains("192.168.7.255"));
        assertFalse(networks.contains("192.168.8.0"));
        assertTrue(networks.contains("203.0.113.9"), "a bare address is a /32");
        assertFalse(networks.contains("203.0.113.10"));
        assertTrue(networks.contains("2001:db8:ffff::1"));
        assertFalse(networks.contains("2001:db9::1"));
    }

    @Test
    void namesAreNeverResolvedAndGarbageIsNoAddress() {
        Networks everything = Networks.parse("0.0.0.0/0, ::/0");
        assertTrue(everything.contains("8.8.8.8"));
        assertFalse(everything.contains("localhost"), "a name is not an address, and nobody asks DNS");
        assertFalse(everything.contains("example.com"));
        assertFalse(everything.contains("10.0.0.1, 10.0.0.2"));
        assertFalse(everything.contains(""));
        assertFalse(Networks.none().contains("10.0.0.1"));
    }

    @Test
    void aBadEntryIsNamed() {
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> Networks.parse("10.0.0.0/8,intranet"));
        assertTrue(name.getMessage().contains("'intranet'"), name.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Networks.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> Networks.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> Networks.parse("2001:db8::/129"));
        assertTrue(Networks.parse(" , ").isEmpty());
    }

    @Test
    void aFullLengthPrefixIsOneAddress() {
        Networks networks = Networks.parse("203.0.113.9/32, 2001:db8::1/128");
        assertTrue(networks.contains("203.0.113.9"));
        assertFalse(networks.contains("203.0.113.8"));
        assertTrue(networks.contains("2001:db8::1"));
        assertFalse(networks.contains("2001:db8::2"));
        assertFalse(networks.isEmpty());
    }

    @Test
    void anIpv4AddressIsInNoIpv6NetworkAndTheOtherWayRound() {
        assertFalse(Networks.parse("::/0").contains("8.8.8.8"));
        assertFalse(Networks.parse("0.0.0.0/0").contains("2001:db8::1"));
    }

    @Test
    void onlyDottedQuadsAreIpv4Addresses() {
        Networks everything = Networks.parse("0.0.0.0/0");
        assertFalse(everything.contains("10.1"), "the shorthand 10.0.0.1 of inet_aton is no address here");
        assertFalse(everything.contains("167772161"), "nor a 32-bit number");
    }

    @Test
    void aBadPrefixLengthNamesTheAllowedRange() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Networks.parse("10.0.0.0/33")).getMessage().contains("0..32"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Networks.parse("2001:db8::/129")).getMessage().contains("0..128"));
    }

    @Test
    void onlyBareIpv6LiteralsAreRead() {
        Networks everything = Networks.parse("::/0");
        assertTrue(everything.contains("::1"));
        assertFalse(everything.contains("[::1]"), "a URI's bracketed host is not an address literal");
    }
}
