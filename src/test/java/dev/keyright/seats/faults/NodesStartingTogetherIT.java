package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Nodes;
import dev.keyright.seats.testing.Tables;
import jakarta.json.Json;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A new installation whose three nodes all start at the same instant on an empty database, five times
 * over: they always agree on one signing key and one generated admin password (no start-up lock; the
 * first key's id is derived from the shared secret, so the losing inserts fail and load the winner's), and a
 * node that lost an insert says so in one line instead of logging the database's refusal with its stack trace.
 */
@ExtendWith(MariaDb.class)
class NodesStartingTogetherIT {

    private static final Pattern GENERATED = Pattern.compile("user 'admin', password '([^']+)'");

    @Test
    void threeNodesFirstStartingTogetherAgreeOnOneKeySetAndOneAdminPassword() throws Exception {
        for (int round = 1; round <= 5; round++) {
            MariaDb.recreate(MariaDb.databaseName());
            try (Nodes installation = new Nodes(MariaDb.databaseName(), Map.of("KEYRIGHT_ADMIN_PASSWORD", ""))) {
                List<Nodes.Node> nodes = installation.startTogether(3);
                Set<String> keySets = new HashSet<>();
                List<String> passwords = new ArrayList<>();
                for (Nodes.Node node : nodes) {
                    // a lost insert is one line (StartUp's "Another node created it first"), not a logged stack trace
                    assertFalse(node.log().contains("Duplicate entry"), "round " + round + ", node " + node.port()
                            + " logged the insert it lost:\n" + node.log());
                    keySets.add(node.api().send("GET", "/.well-known/jwks.json", null, Map.of()).body());
                    Matcher generated = GENERATED.matcher(node.log());
                    while (generated.find()) {
                        passwords.add(generated.group(1));
                    }
                }
                assertEquals(1, keySets.size(), "round " + round + ": every node publishes the same key set " + keySets);
                assertEquals(1, Json.createReader(new StringReader(keySets.iterator().next())).readObject()
                        .getJsonArray("keys").size(), "round " + round + ": one key");
                assertEquals(1, Tables.count("SELECT COUNT(*) FROM signing_key"), "round " + round);
                assertEquals(1, passwords.size(), "round " + round + ": one node generated and printed the password " + passwords);
                String basic = "Basic " + Base64.getEncoder().encodeToString(("admin:" + passwords.get(0)).getBytes(StandardCharsets.UTF_8));
                for (Nodes.Node node : nodes) {
                    int status = node.api().send("GET", "/v1/admin/licenses", null, Map.of("Authorization", basic)).status();
                    assertEquals(200, status, "round " + round + ": the one password opens the admin API on node " + node.port());
                }
                assertTrue(Tables.count("SELECT COUNT(*) FROM setting WHERE name = 'admin.password.generated'") == 1);
            }
        }
    }
}
