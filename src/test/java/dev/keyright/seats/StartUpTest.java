package dev.keyright.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.configuration.KeyrightConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The defaults for new licenses are held to the bounds the license policy owns, and named by their setting. */
class StartUpTest {

    private static List<String> problems(Map<String, String> env) {
        return StartUp.defaultPolicyProblems(KeyrightConfig.read(env::get));
    }

    @Test
    void theContractDefaultsAreAValidPolicy() {
        assertEquals(List.of(), problems(Map.of()));
    }

    @Test
    void aDefaultTtlOutsideThePolicyBoundsNamesTheSetting() {
        assertEquals(List.of("KEYRIGHT_DEFAULT_TTL_SECONDS must be between 2 and 86400"),
                problems(Map.of("KEYRIGHT_DEFAULT_TTL_SECONDS", "1")));
        assertEquals(List.of("KEYRIGHT_DEFAULT_TTL_SECONDS must be between 2 and 86400"),
                problems(Map.of("KEYRIGHT_DEFAULT_TTL_SECONDS", "86401")));
        assertEquals(List.of(), problems(Map.of("KEYRIGHT_DEFAULT_TTL_SECONDS", "2")));
    }

    @Test
    void aDefaultSkewAboveThePolicyMaximumNamesTheSetting() {
        List<String> problems = problems(Map.of("KEYRIGHT_DEFAULT_SKEW_SECONDS", "3601", "KEYRIGHT_REAP_GRACE_SECONDS", "4000"));
        assertEquals(1, problems.size(), problems.toString());
        assertEquals(true, problems.get(0).startsWith("KEYRIGHT_DEFAULT_SKEW_SECONDS must be between 0 and 3600"), problems.toString());
    }

    /** What the server lacks (MicroProfile Health on GlassFish and WildFly's default profile) is named, not failed on. */
    @Test
    void anOptionalServerApiIsToldApartFromAMissingOne() {
        assertEquals(true, StartUp.serverHas(StartUp.MICROPROFILE_HEALTH)); // provided scope: on the test class path
        assertEquals(false, StartUp.serverHas("org.eclipse.microprofile.health.NoSuchCheck"));
    }

    /**
     * Nodes first starting together race to create the signing key; on Galera the loser's commit can fail
     * certification, which reaches the start-up as a bare SystemException (GaleraClusterIT): it loads again.
     */
    @Test
    void aLoadWhoseCommitLostARaceIsRunAgainAndAnyOtherFailureEndsTheStart() {
        int[] calls = {0};
        StartUp.converged(() -> {
            if (++calls[0] == 1) {
                throw new jakarta.ejb.EJBException("Unable to complete container-managed transaction.",
                        new jakarta.transaction.SystemException());
            }
        });
        assertEquals(2, calls[0]);

        int[] failures = {0};
        IllegalStateException other = new IllegalStateException("no signing key and none can be made");
        assertEquals(other, org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> StartUp.converged(() -> {
            failures[0]++;
            throw other;
        })));
        assertEquals(1, failures[0]);
    }
}
