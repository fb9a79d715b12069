package dev.keyright.seats.configuration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Who ends the process after a failed start: only Payara Micro started from its jar, unless the operator says otherwise. */
class FailedStartTest {

    private static Properties system(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    private static final Properties MICRO = system(FailedStart.PAYARA_MICRO_BOOT_JAR, "file:/opt/payara-micro.jar");

    @Test
    void payaraMicroStartedFromItsJarExits() {
        assertTrue(FailedStart.exits(Map.of(), MICRO));
    }

    @Test
    void aFullApplicationServerOnlyFailsTheDeployment() {
        assertFalse(FailedStart.exits(Map.of(), system("com.sun.aas.installRoot", "/opt/payara6/glassfish")));
    }

    @Test
    void theOperatorDecidesEitherWay() {
        assertFalse(FailedStart.exits(Map.of(FailedStart.SETTING, "false"), MICRO));
        assertFalse(FailedStart.exits(Map.of(FailedStart.SETTING, "FALSE"), MICRO));
        assertTrue(FailedStart.exits(Map.of(FailedStart.SETTING, "true"), system()));
        assertFalse(FailedStart.exits(Map.of(), system(FailedStart.SETTING, "false", FailedStart.PAYARA_MICRO_BOOT_JAR, "x")),
                "as a system property too");
    }
}
