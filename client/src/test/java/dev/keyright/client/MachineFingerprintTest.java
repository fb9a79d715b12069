package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The default machine fingerprint: stable on one machine, different across machines and products. */
class MachineFingerprintTest {

    private static final String PRODUCT = "acme-studio";
    private static final String API_RULE = "[A-Za-z0-9._:-]{16,128}";

    private final List<List<String>> commandsRun = new ArrayList<>();

    /** A Linux machine whose files say {@code files}. */
    private static MachineIdentity linux(Map<Path, String> files) {
        return new MachineIdentity("Linux", file -> Optional.ofNullable(files.get(file)), command -> Optional.empty());
    }

    private MachineIdentity running(String osName, String output) {
        return new MachineIdentity(osName, file -> Optional.empty(), command -> {
            commandsRun.add(command);
            return Optional.ofNullable(output);
        });
    }

    @Test
    void theSameMachineGivesTheSameFingerprintTwice() {
        MachineIdentity machine = linux(Map.of(Paths.get("/etc/machine-id"), "0b6c1a4e2f3d4c5b8a9e7d6c5b4a3f2e\n"));
        assertEquals(MachineFingerprint.derive(PRODUCT, machine.read()), MachineFingerprint.derive(PRODUCT, machine.read()));
    }

    @Test
    void aSecondMachineGivesAnotherFingerprint() {
        String first = MachineFingerprint.derive(PRODUCT,
                linux(Map.of(Paths.get("/etc/machine-id"), "0b6c1a4e2f3d4c5b8a9e7d6c5b4a3f2e\n")).read());
        String second = MachineFingerprint.derive(PRODUCT,
                linux(Map.of(Paths.get("/etc/machine-id"), "7e2d9c1b0a4f4e8d9c3b2a1f0e9d8c7b\n")).read());
        assertNotEquals(first, second);
    }

    @Test
    void twoProductsSeeUnrelatedFingerprintsOfOneMachine() {
        String machine = "0b6c1a4e2f3d4c5b8a9e7d6c5b4a3f2e";
        assertNotEquals(MachineFingerprint.derive(PRODUCT, machine), MachineFingerprint.derive("acme-cad", machine));
    }

    @Test
    void onThisLinuxMachineItReadsEtcMachineIdAndIs64HexCharactersThatFitTheApi() throws Exception {
        Path machineId = Paths.get("/etc/machine-id");
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && Files.isReadable(machineId),
                "a Linux machine with /etc/machine-id");
        String id = Files.readString(machineId).trim();

        assertEquals(id, MachineIdentity.ofThisMachine().read());
        String fingerprint = MachineFingerprint.of(PRODUCT);
        assertEquals(MachineFingerprint.derive(PRODUCT, id), fingerprint);
        assertEquals(fingerprint, MachineFingerprint.of(PRODUCT), "stable");
        assertTrue(fingerprint.matches("[0-9a-f]{64}"), fingerprint);
        assertTrue(fingerprint.matches(API_RULE));
        assertFalse(fingerprint.contains(id), "the raw machine id does not leave the machine");
    }

    @Test
    void withoutEtcMachineIdItReadsDbusOnesAndSkipsAnUninitialisedOne() {
        Path dbus = Paths.get("/var/lib/dbus/machine-id");
        assertEquals("6f1e2d3c4b5a69788796a5b4c3d2e1f0",
                linux(Map.of(dbus, "6f1e2d3c4b5a69788796a5b4c3d2e1f0\n")).read());
        assertEquals("6f1e2d3c4b5a69788796a5b4c3d2e1f0", linux(Map.of(Paths.get("/etc/machine-id"), "uninitialized\n",
                dbus, "6f1e2d3c4b5a69788796a5b4c3d2e1f0\n")).read());
        KeyrightException none = assertThrows(KeyrightException.class, () -> linux(Map.of()).read());
        assertTrue(none.getMessage().contains("/etc/machine-id"), none.getMessage());
    }

    @Test
    void onWindowsItReadsTheMachineGuidWithRegQuery() {
        String output = "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography\r\n"
                + "    MachineGuid    REG_SZ    1f2e3d4c-5b6a-4789-9a8b-7c6d5e4f3a2b\r\n\r\n";

        assertEquals("1f2e3d4c-5b6a-4789-9a8b-7c6d5e4f3a2b", running("Windows 11", output).read());
        assertEquals(List.of(List.of("reg", "query", "HKLM\\SOFTWARE\\Microsoft\\Cryptography", "/v", "MachineGuid")),
                commandsRun);
    }

    @Test
    void onMacOsItReadsTheIoPlatformUuidWithIoreg() {
        String output = "+-o J314sAP  <class IOPlatformExpertDevice, id 0x100000226, registered, matched, active>\n"
                + "    {\n      \"IOPlatformSerialNumber\" = \"C02XXXXXXXXX\"\n"
                + "      \"IOPlatformUUID\" = \"A1B2C3D4-E5F6-4789-ABCD-0123456789AB\"\n    }\n";

        assertEquals("a1b2c3d4-e5f6-4789-abcd-0123456789ab", running("Mac OS X", output).read(),
                "lower case, so a tool that prints it otherwise changes nothing");
        assertEquals(List.of(List.of("ioreg", "-rd1", "-c", "IOPlatformExpertDevice")), commandsRun);
        assertThrows(KeyrightException.class, () -> running("Mac OS X", null).read());
    }
}
