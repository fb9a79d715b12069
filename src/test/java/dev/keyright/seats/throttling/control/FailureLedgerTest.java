package dev.keyright.seats.throttling.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.throttling.control.FailureLedger.Verdict.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailureLedgerTest {

    private static final Instant T0 = Instant.parse("2026-11-13T14:00:00Z");

    @Test
    void allowsThenSlowsThenRefusesUntilTheWindowPasses() {
        FailureLedger ledger = new FailureLedger(2, 4, Duration.ofSeconds(60), 100);
        for (int i = 0; i < 2; i++) {
            ledger.recordFailure("a", T0);
        }
        assertEquals(Kind.ALLOW, ledger.verdict("a", T0).kind());
        ledger.recordFailure("a", T0.plusSeconds(1));
        FailureLedger.Verdict slow = ledger.verdict("a", T0.plusSeconds(1));
        assertEquals(Kind.SLOW, slow.kind());
        assertEquals(Duration.ofMillis(100), slow.delay());
        ledger.recordFailure("a", T0.plusSeconds(2));
        FailureLedger.Verdict refused = ledger.verdict("a", T0.plusSeconds(2));
        assertEquals(Kind.REFUSE, refused.kind());
        assertEquals(59, refused.retryAfterSeconds(), "until the oldest counted failure leaves the window");
        assertEquals(Kind.ALLOW, ledger.verdict("b", T0.plusSeconds(2)).kind(), "other addresses are unaffected");
        assertEquals(Kind.REFUSE, ledger.verdict("a", T0.plusSeconds(59)).kind());
        assertEquals(Kind.ALLOW, ledger.verdict("a", T0.plusMillis(60_500)).kind(), "the two oldest failures left the window");
    }

    @Test
    void remembersABoundedNumberOfAddresses() {
        FailureLedger ledger = new FailureLedger(0, 1, Duration.ofSeconds(60), 2);
        ledger.recordFailure("a", T0);
        ledger.recordFailure("b", T0);
        ledger.recordFailure("c", T0);
        assertEquals(Kind.ALLOW, ledger.verdict("a", T0).kind(), "the stalest address was forgotten");
        assertEquals(Kind.REFUSE, ledger.verdict("c", T0).kind());
    }

    @Test
    void forwardedForIsBelievedOnlyFromTrustedProxies() {
        ClientAddresses addresses = new ClientAddresses(Set.of("10.0.0.1", "10.0.0.2"));
        assertEquals("203.0.113.9", addresses.of("203.0.113.9", "198.51.100.1"), "an untrusted peer cannot choose its address");
        assertEquals("198.51.100.1", addresses.of("10.0.0.1", "198.51.100.1"));
        assertEquals("198.51.100.7", addresses.of("10.0.0.1", "1.2.3.4, 198.51.100.7, 10.0.0.2"), "nearest untrusted hop");
        assertEquals("10.0.0.1", addresses.of("10.0.0.1", null));
    }

    @Test
    void failuresPastTheLimitAreNotCounted() {
        FailureLedger ledger = new FailureLedger(1, 2, Duration.ofSeconds(60), 100);
        ledger.recordFailure("a", T0);
        ledger.recordFailure("a", T0.plusSeconds(10));
        ledger.recordFailure("a", T0.plusSeconds(20)); // already refused: a refusal is not another guess
        assertEquals(Kind.REFUSE, ledger.verdict("a", T0.plusSeconds(59)).kind());
        assertEquals(Kind.ALLOW, ledger.verdict("a", T0.plusMillis(60_500)).kind(),
                "once the oldest counted failure has left the window, one failure is left: not past slowAfter 1");
    }

    @Test
    void failuresCountAgainOnceTheOldOnesLeftTheWindow() {
        FailureLedger ledger = new FailureLedger(0, 2, Duration.ofSeconds(60), 100);
        ledger.recordFailure("a", T0);
        ledger.recordFailure("a", T0);
        ledger.recordFailure("a", T0.plusSeconds(61));
        ledger.recordFailure("a", T0.plusSeconds(61));
        assertEquals(Kind.REFUSE, ledger.verdict("a", T0.plusSeconds(61)).kind(), "two fresh failures reach the limit of 2");
    }

    @Test
    void theMostRecentAddressesAreKeptAndAForgivenOneGivesUpItsPlace() {
        FailureLedger ledger = new FailureLedger(0, 1, Duration.ofSeconds(60), 2);
        ledger.recordFailure("a", T0);
        ledger.recordFailure("b", T0.plusSeconds(30));
        assertEquals(Kind.REFUSE, ledger.verdict("a", T0.plusSeconds(30)).kind(), "two addresses fit in a bound of 2");
        assertEquals(Kind.REFUSE, ledger.verdict("b", T0.plusSeconds(30)).kind());
        assertEquals(Kind.ALLOW, ledger.verdict("a", T0.plusSeconds(61)).kind(), "a's failure left the window");
        ledger.recordFailure("c", T0.plusSeconds(62));
        assertEquals(Kind.REFUSE, ledger.verdict("b", T0.plusSeconds(62)).kind(), "b is still remembered: a, forgiven, took no place");
        assertEquals(Kind.REFUSE, ledger.verdict("c", T0.plusSeconds(62)).kind());
    }

    @Test
    void theForwardedAddressIsCutAt64CharactersAndAChainOfTrustedProxiesLeavesThePeer() {
        ClientAddresses addresses = new ClientAddresses(Set.of("10.0.0.1", "10.0.0.2"));
        String long64 = "x".repeat(64);
        assertEquals(long64, addresses.of("10.0.0.1", long64));
        assertEquals(long64, addresses.of("10.0.0.1", long64 + "y"));
        assertEquals("10.0.0.1", addresses.of("10.0.0.1", "10.0.0.2, , 10.0.0.1"), "no untrusted hop: the peer itself");
    }
}
