package dev.keyright.seats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Chromium;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin page in a headless Chromium of its own (a fresh profile), for {@link AdminPageIT}: opening it
 * signed in, what it recorded of script errors and CSP violations, a full-page screenshot, and selectors
 * into a license's card.
 */
final class AdminPageBrowser implements AutoCloseable {

    /** Collects script errors and CSP violations in the page, installed before any of its own scripts run. */
    private static final String ERROR_RECORDER = """
            window.__pageErrors = [];
            document.addEventListener('securitypolicyviolation', (e) =>
                window.__pageErrors.push('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));
            window.addEventListener('error', (e) => window.__pageErrors.push('error: ' + (e.message || e.target)), true);
            window.addEventListener('unhandledrejection', (e) => window.__pageErrors.push('unhandled: ' + e.reason));
            """;

    private final ChromeDriver browser;
    private final Path profile;

    private AdminPageBrowser(ChromeDriver browser, Path profile) {
        this.browser = browser;
        this.profile = profile;
    }

    /** Opens {@code path} of {@code server} signed in as the administrator, with the error recorder in place. */
    static AdminPageBrowser open(URL server, String path) throws IOException {
        Path profile = Files.createTempDirectory("keyright-chromium-");
        ChromeDriver driver = Chromium.start(profile);
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", ERROR_RECORDER));
        driver.get(server.getProtocol() + "://" + Api.ADMIN_USER + ":" + Api.ADMIN_PASSWORD + "@" + server.getHost() + ":"
                + server.getPort() + path);
        return new AdminPageBrowser(driver, profile);
    }

    ChromeDriver driver() {
        return browser;
    }

    @Override
    public void close() throws IOException {
        browser.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
    }

    void assertNoPageErrors() {
        Object recorded = browser.executeScript("return window.__pageErrors || ['the error recorder did not run'];");
        assertEquals(List.of(), recorded, "script errors or CSP violations in the page");
        List<String> severe = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            boolean usageNotThereYet = entry.getMessage().contains("/usage?bucket=") && entry.getMessage().contains(" 404 ");
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue() && !usageNotThereYet) {
                severe.add(entry.getMessage());
            }
        }
        assertEquals(List.of(), severe, "console errors");
    }

    /** The browser enforces the page's policy: a script injected into the page as markup does not run. */
    void assertCspEnforced(Duration wait) {
        browser.executeScript("const s = document.createElement('script'); s.textContent = 'window.__inline = 1;';"
                + " document.body.appendChild(s);");
        new WebDriverWait(browser, wait).until(d -> browser.executeScript(
                "return window.__pageErrors.some((e) => e.startsWith('CSP violation: script-src'));"));
        assertEquals(null, browser.executeScript("return window.__inline;"));
    }

    /** The whole page, not only the window, through the DevTools protocol. */
    void screenshot(Path target) throws IOException {
        Map<String, Object> metrics = browser.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        Map<?, ?> size = (Map<?, ?>) metrics.get("cssContentSize");
        Map<String, Object> clip = Map.of("x", 0, "y", 0, "scale", 1,
                "width", ((Number) size.get("width")).doubleValue(), "height", ((Number) size.get("height")).doubleValue());
        Map<String, Object> shot = browser.executeCdpCommand("Page.captureScreenshot",
                Map.of("format", "png", "captureBeyondViewport", true, "clip", clip));
        Files.createDirectories(target.getParent());
        Files.write(target, Base64.getDecoder().decode((String) shot.get("data")));
    }

    /** A CSS selector within the card of a license ("" for the card itself). */
    static By in(String licenseId, String selector) {
        return By.cssSelector(("article.license[data-license-id='" + licenseId + "'] " + selector).trim());
    }

    static By card(String licenseId) {
        return in(licenseId, "");
    }

    static By gauge(String licenseId) {
        return in(licenseId, ".gauge-label");
    }

    static By holder(String licenseId, String leaseId) {
        return in(licenseId, "tr.holder[data-lease-id='" + leaseId + "']");
    }
}
