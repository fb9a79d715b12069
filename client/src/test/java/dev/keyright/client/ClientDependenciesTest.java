package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The client ships as its own jar, on the JDK and jose4j alone: no Jakarta EE API (which is on the
 * server's compile classpath) and none of the server's classes may leak into it.
 */
class ClientDependenciesTest {

    private static final List<String> FORBIDDEN = List.of("jakarta/", "javax/ws/", "javax/persistence/",
            "dev/keyright/seats/", "org/eclipse/persistence/", "org/flywaydb/", "org/h2/");

    @Test
    void compiledClientClassesReferenceNoJakartaNorServerClasses() throws Exception {
        List<Path> classes = clientClassFiles();
        assertTrue(classes.size() > 20, "found the compiled client classes: " + classes.size());
        for (Path file : classes) {
            String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String prefix : FORBIDDEN) {
                assertEquals(-1, bytes.indexOf(prefix), file + " references " + prefix);
            }
        }
    }

    private static List<Path> clientClassFiles() throws IOException, URISyntaxException {
        Path root = Paths.get(KeyrightClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(root.resolve("dev/keyright/client"))) {
            return files.filter(f -> f.toString().endsWith(".class")).collect(Collectors.toList());
        }
    }
}
