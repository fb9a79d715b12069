package dev.keyright.seats.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import dev.keyright.seats.monitoring.boundary.SeatPoolMXBean;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Nodes;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A redeploy in the same JVM neither leaks MXBeans nor fails to register them again. */
class RedeployIT {

    private static final long RETOUCH_NANOS = Duration.ofSeconds(30).toNanos();

    @TempDir
    Path work;

    @Test
    void redeployingTheApplicationLeavesExactlyOneSetOfWorkingMxBeans() throws Exception {
        Path exploded = unzip(new File("target/keyright-seats.war").toPath(), work.resolve("keyright-seats"));
        Nodes.Node node = Nodes.embedded(exploded.toFile(), Map.of("KEYRIGHT_DATA_DIR", work.resolve("data").toString(),
                "KEYRIGHT_ADMIN_PASSWORD", Api.ADMIN_PASSWORD), work.resolve("node.log"));
        try {
            node.awaitReady(Duration.ofSeconds(240));
            JsonObject license = node.api().createLicense("redeploy", 2, 60, 5);
            String id = license.getString("licenseId");

            long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
            long touchedAt = 0;
            while (node.logCount("Keyright Seats is ready") < 2) {
                assertTrue(System.nanoTime() < deadline, "no redeploy seen in the log");
                if (node.logCount("was successfully deployed") < 2 && System.nanoTime() - touchedAt > RETOUCH_NANOS) {
                    // Payara compares .reload's time with the deployment's; on a loaded machine the first touch
                    // can land within the deployment's own second and be ignored, so touch again until it is seen
                    touchedAt = System.nanoTime();
                    Files.writeString(exploded.resolve(".reload"), "");
                    Files.setLastModifiedTime(exploded.resolve(".reload"), FileTime.from(Instant.now()));
                }
                Thread.sleep(250);
            }
            node.awaitReady(Duration.ofSeconds(60));
            assertFalse(node.log().contains("Could not register MXBean"), "registration after redeploy succeeded");

            try (JMXConnector connector = attach(node.pid())) {
                MBeanServerConnection jmx = connector.getMBeanServerConnection();
                Set<ObjectName> beans = jmx.queryNames(new ObjectName("dev.keyright:*"), null);
                assertEquals(Set.of(new ObjectName("dev.keyright:type=SeatService"), new ObjectName("dev.keyright:type=Reaper"),
                        new ObjectName("dev.keyright:type=SeatPool,license=" + id)), beans, "one of each, nothing left behind");
                assertEquals(201, node.api().acquire("redeploy", license.getString("licenseKey"), "after-redeploy").status());
                SeatPoolMXBean pool = JMX.newMXBeanProxy(jmx, new ObjectName("dev.keyright:type=SeatPool,license=" + id), SeatPoolMXBean.class);
                assertEquals(1, pool.getSeatsInUse(), "the bean reads through the redeployed application");
                assertEquals(1, pool.getAcquisitions());
            }
        } finally {
            node.kill();
        }
    }

    private static JMXConnector attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
        try {
            return JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
        } finally {
            vm.detach();
        }
    }

    private static Path unzip(Path war, Path target) throws Exception {
        try (InputStream in = Files.newInputStream(war); ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                if (!file.startsWith(target)) {
                    throw new IllegalStateException("bad entry " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(zip, file);
                }
            }
        }
        return target;
    }
}
