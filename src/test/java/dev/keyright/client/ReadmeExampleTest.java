package dev.keyright.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The example in docs/CLIENT.md is ReadmeExample.java, word for word, so it always compiles. */
class ReadmeExampleTest {

    @Test
    void theDocumentedExampleIsTheCompiledOne() throws Exception {
        Path base = Paths.get(System.getProperty("basedir", "."));
        String doc = Files.readString(base.resolve("docs/CLIENT.md"));
        String source = Files.readString(base.resolve("src/test/java/dev/keyright/client/ReadmeExample.java"));

        int section = doc.indexOf("## Use it from your app");
        assertTrue(section >= 0, "the section is there");
        int start = doc.indexOf("```java\n", section) + "```java\n".length();
        String documented = doc.substring(start, doc.indexOf("```\n", start));

        assertEquals(source.replaceFirst("package dev\\.keyright\\.client;\n\n", ""), documented);
    }
}
