package dev.keyright.seats.testing;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The WAR that ships, exactly as built, plus the test-only clock and reaper controls. */
public final class Deployments {

    private Deployments() {
    }

    /** The deployment's URL on the loopback address: tests send traffic to 127.0.0.1 only. */
    public static java.net.URL loopback(java.net.URL base) {
        try {
            return new java.net.URL(base.getProtocol(), "127.0.0.1", base.getPort(), base.getFile());
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static WebArchive seats() {
        File war = new File("target/keyright-seats.war");
        if (!war.isFile()) {
            throw new IllegalStateException("Build the WAR first (mvn package): " + war.getAbsolutePath());
        }
        return ShrinkWrap.create(ZipImporter.class, "keyright-seats.war").importFrom(war).as(WebArchive.class)
                .addClasses(MovableClock.class, ClockResource.class, ReaperResource.class, ServerLog.class, ThreadsResource.class,
                        QueueResource.class, FaultResource.class, LicenseLockResource.class,
                        KnownLeasesResource.class, LicenseFlagsResource.class);
    }
}
