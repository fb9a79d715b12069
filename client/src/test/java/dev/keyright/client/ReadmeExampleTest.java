package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The examples in README.md and docs/CLIENT.md are ReadmeExample.java, word for word, so they always compile. */
class ReadmeExampleTest {

    @Test
    void theReadmeExampleIsTheCompiledOne() throws Exception {
        assertDocumented("README.md");
    }

    @Test
    void theDocumentedExampleIsTheCompiledOne() throws Exception {
        assertDocumented("docs/CLIENT.md");
    }

    private static void assertDocumented(String file) throws Exception {
        Path module = Paths.get(System.getProperty("basedir", "."));
        String doc = Files.readString(module.resolve("..").resolve(file)); // the project's README and docs
        String source = Files.readString(module.resolve("src/test/java/dev/keyright/client/ReadmeExample.java"));

        int section = doc.indexOf("## Use it from your app");
        assertTrue(section >= 0, "the section is there");
        int start = doc.indexOf("```java\n", section) + "```java\n".length();
        String documented = doc.substring(start, doc.indexOf("```\n", start));

        assertEquals(source.replaceFirst("package dev\\.keyright\\.client;\n\n", ""), documented);
    }
}
