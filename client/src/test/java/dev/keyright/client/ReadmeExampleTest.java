package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The examples in README.md and docs/CLIENT.md are ReadmeExample.java and OfflineExample.java, word for word, so
 * they always compile.
 */
class ReadmeExampleTest {

    @Test
    void theReadmeExampleIsTheCompiledOne() throws Exception {
        assertDocumented("README.md");
    }

    @Test
    void theDocumentedExampleIsTheCompiledOne() throws Exception {
        assertDocumented("docs/CLIENT.md");
    }

    @Test
    void theOfflineExampleIsTheCompiledOne() throws Exception {
        assertDocumented("docs/CLIENT.md", "## Offline use", "OfflineExample.java");
    }

    private static void assertDocumented(String file) throws Exception {
        assertDocumented(file, "## Use it from your app", "ReadmeExample.java");
    }

    private static void assertDocumented(String file, String heading, String example) throws Exception {
        Path module = Paths.get(System.getProperty("basedir", "."));
        String doc = Files.readString(module.resolve("..").resolve(file)); // the project's README and docs
        String source = Files.readString(module.resolve("src/test/java/dev/keyright/client/" + example));

        int section = doc.indexOf(heading);
        assertTrue(section >= 0, "the section is there");
        int start = doc.indexOf("```java\n", section) + "```java\n".length();
        String documented = doc.substring(start, doc.indexOf("```\n", start));

        assertEquals(source.replaceFirst("package dev\\.keyright\\.client;\n\n", ""), documented);
    }
}
