package dev.keyright.seats.testing;

import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared fixture of the integration tests: the WAR that ships (plus the test-only controls) on Payara
 * Micro against a fresh MariaDB database of the class's own, driven from outside over HTTP, with the
 * server's clock back on system time after every test, whatever the test did to it.
 */
@ExtendWith({MariaDb.class, ArquillianExtension.class})
@RunAsClient
public abstract class OnTheServer {

    @ArquillianResource
    protected URL base;

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.seats();
    }

    @AfterEach
    void resetTheServersClock() {
        new Api(base).resetClock();
    }

    protected Api api() {
        return new Api(base);
    }

    /** A product name no other test uses: {@code prefix-} and eight random hex digits. */
    protected static String uniqueProduct(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
