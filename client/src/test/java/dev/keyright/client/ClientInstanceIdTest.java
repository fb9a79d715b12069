package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientInstanceIdTest {

    @TempDir
    Path home;

    @Test
    void generatesOnceAndReusesThePersistedId() throws Exception {
        Map<String, String> environment = Map.of("XDG_CONFIG_HOME", home.toString());

        String first = ClientInstanceId.resolve(environment);
        String second = ClientInstanceId.resolve(environment);

        assertEquals(first, second);
        assertTrue(ClientInstanceId.isValid(first), first);
        assertEquals(first, Files.readString(home.resolve("keyright/client-instance-id")).trim());
    }

    @Test
    void theEnvironmentVariableWins() {
        Map<String, String> environment = Map.of("XDG_CONFIG_HOME", home.toString(),
                ClientInstanceId.ENVIRONMENT_VARIABLE, "ci-runner-7");
        assertEquals("ci-runner-7", ClientInstanceId.resolve(environment));
        assertFalse(Files.exists(home.resolve("keyright")), "nothing persisted when the variable names the id");
    }

    @Test
    void refusesAMalformedIdFromTheEnvironment() {
        Map<String, String> environment = Map.of(ClientInstanceId.ENVIRONMENT_VARIABLE, "no spaces/slashes");
        assertThrows(IllegalArgumentException.class, () -> ClientInstanceId.resolve(environment));
    }

    @Test
    void replacesACorruptFile() throws Exception {
        Path file = home.resolve("keyright/client-instance-id");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "not valid!\n");

        String id = ClientInstanceId.loadOrCreate(file);

        assertTrue(ClientInstanceId.isValid(id));
        assertEquals(id, ClientInstanceId.loadOrCreate(file));
    }

    @Test
    void keepsTheContractsFormat() {
        assertTrue(ClientInstanceId.isValid("inst-91a7"));
        assertTrue(ClientInstanceId.isValid("host.example:1_2-3"));
        assertTrue(ClientInstanceId.isValid("a".repeat(128)));
        assertFalse(ClientInstanceId.isValid("a".repeat(129)));
        assertFalse(ClientInstanceId.isValid(""));
        assertFalse(ClientInstanceId.isValid("é"));
        assertFalse(ClientInstanceId.isValid(null));
    }

    @Test
    void findsTheUsersConfigDirectory() {
        assertEquals(Paths.get("/x/cfg/keyright/client-instance-id"),
                ClientInstanceId.defaultFile(Map.of("XDG_CONFIG_HOME", "/x/cfg"), "Linux", "/home/u"));
        assertEquals(Paths.get("/home/u/.config/keyright/client-instance-id"),
                ClientInstanceId.defaultFile(Map.of(), "Linux", "/home/u"));
        assertEquals(Paths.get("/home/u/.config/keyright/client-instance-id"),
                ClientInstanceId.defaultFile(Map.of("XDG_CONFIG_HOME", "relative"), "Linux", "/home/u"),
                "XDG: a relative path is ignored");
        assertEquals(Paths.get("/appdata", "keyright", "client-instance-id"),
                ClientInstanceId.defaultFile(Map.of("APPDATA", "/appdata"), "Windows 11", "/home/u"));
    }

    @Test
    void theClientSendsThePersistedIdWithEveryAcquire() throws Exception {
        try (FakeKeyrightServer server = new FakeKeyrightServer()) {
            Path file = home.resolve("id");
            KeyrightClientBuilder builder = KeyrightClient.builder().server(server.uri())
                    .product(FakeSeatService.PRODUCT).licenseKey(FakeSeatService.LICENSE_KEY)
                    .environment(Map.of()).clientInstanceIdFile(file);
            KeyrightClient first = builder.build();
            first.releaseSeat(first.acquireSeat());
            KeyrightClient second = builder.build();
            second.acquireSeat();

            String persisted = Files.readString(file).trim();
            assertEquals(List.of(persisted, persisted), server.service.clientInstanceIds);
            assertEquals(persisted, second.clientInstanceId());
            assertNotEquals("", persisted);
        }
    }
}
