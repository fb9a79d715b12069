package dev.keyright.seats.testing;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The WAR that ships, exactly as built, plus the test-only clock and reaper controls. */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive seats() {
        File war = new File("target/keyright-seats.war");
        if (!war.isFile()) {
            throw new IllegalStateException("Build the WAR first (mvn package): " + war.getAbsolutePath());
        }
        return ShrinkWrap.create(ZipImporter.class, "keyright-seats.war").importFrom(war).as(WebArchive.class)
                .addClasses(MovableClock.class, ClockResource.class, ReaperResource.class);
    }
}
