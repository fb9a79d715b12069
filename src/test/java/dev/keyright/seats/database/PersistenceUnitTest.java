package dev.keyright.seats.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.InputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The persistence unit as the container reads it. Bean Validation of entities is off: with the default (AUTO)
 * EclipseLink hands every persisted and updated entity to the validator on every checkout, release and activation,
 * and the entities have no constraints to check (ArchitectureTest keeps it so).
 */
class PersistenceUnitTest {

    @Test
    void entitiesAreNotHandedToBeanValidation() throws Exception {
        assertEquals("NONE", element("validation-mode"));
    }

    private static String element(String name) throws Exception {
        try (InputStream xml = PersistenceUnitTest.class.getResourceAsStream("/META-INF/persistence.xml")) {
            assertNotNull(xml, "META-INF/persistence.xml on the class path");
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            Document document = factory.newDocumentBuilder().parse(xml);
            var elements = document.getElementsByTagNameNS("https://jakarta.ee/xml/ns/persistence", name);
            assertEquals(1, elements.getLength(), "one <" + name + "> in the persistence unit");
            return elements.item(0).getTextContent().trim();
        }
    }
}
