package dev.keyright.seats.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.MariaDb;
import dev.keyright.seats.testing.Nodes;
import dev.keyright.seats.testing.Tables;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fixture of the fault tests: two Payara Micro nodes sharing one fresh MariaDB database, no
 * app-server clustering (see {@link Nodes}), started once per class and stopped after it.
 */
@ExtendWith(MariaDb.class)
abstract class OnTwoNodes {

    static final Map<String, String> NODE_SETTINGS = Map.of(
            "KEYRIGHT_REAP_INTERVAL_SECONDS", "1", "KEYRIGHT_REAP_GRACE_SECONDS", "2", "KEYRIGHT_DEFAULT_SKEW_SECONDS", "1");

    static Nodes cluster;
    static List<Nodes.Node> nodes;

    @BeforeAll
    static void startTwoNodes() throws Exception {
        cluster = new Nodes(MariaDb.databaseName(), NODE_SETTINGS);
        nodes = new ArrayList<>(cluster.start(2));
    }

    @AfterAll
    static void stopNodes() {
        if (cluster != null) {
            cluster.close();
        }
    }

    protected static List<Api> apis() {
        return nodes.stream().map(Nodes.Node::api).toList();
    }

    protected static JsonObject license(int seats, int ttl, int skew) {
        return apis().get(0).createLicense("ft-" + UUID.randomUUID().toString().substring(0, 8), seats, ttl, skew);
    }
}
