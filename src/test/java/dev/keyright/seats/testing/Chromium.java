package dev.keyright.seats.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's {@code chromium} and {@code chromium-driver} for browser tests: installs them with apt-get when
 * {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is missing (as root, bounded in time), and
 * starts headless sessions on them. Selenium never downloads a browser or a driver of its own: both paths
 * are given. Register it before the Arquillian extension, so a missing browser fails before a deployment.
 */
public class Chromium implements BeforeAllCallback {

    public static final Path BROWSER = Path.of("/usr/bin/chromium");
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration APT_TIME = Duration.ofMinutes(8);
    private static final Path INSTALL_LOG = Path.of("target", "chromium-install.log");

    @Override
    public void beforeAll(ExtensionContext context) {
        ensureInstalled();
    }

    public static synchronized void ensureInstalled() {
        if (installed()) {
            return;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new IllegalStateException("Browser tests need " + BROWSER + " and " + DRIVER
                    + "; install them as root: apt-get update && apt-get install -y chromium chromium-driver");
        }
        apt(List.of("apt-get", "-q", "update"));
        apt(List.of("apt-get", "-q", "-y", "-o", "DPkg::Lock::Timeout=120", "install", "chromium", "chromium-driver"));
        if (!installed()) {
            throw new IllegalStateException("apt-get installed chromium and chromium-driver but " + BROWSER + " or "
                    + DRIVER + " is still missing; see " + INSTALL_LOG.toAbsolutePath());
        }
    }

    private static boolean installed() {
        return Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
    }

    private static void apt(List<String> command) {
        try {
            Files.createDirectories(INSTALL_LOG.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(INSTALL_LOG.toFile()));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            if (!process.waitFor(APT_TIME.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + APT_TIME.toMinutes()
                        + " minutes; see " + INSTALL_LOG.toAbsolutePath() + tail());
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed with exit code " + process.exitValue()
                        + "; see " + INSTALL_LOG.toAbsolutePath() + tail());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing chromium", e);
        }
    }

    private static String tail() {
        try {
            List<String> lines = Files.readAllLines(INSTALL_LOG, StandardCharsets.UTF_8);
            return "\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }

    /**
     * A new headless Chromium with a fresh profile in {@code profile}, its console kept for
     * {@link org.openqa.selenium.WebDriver.Options#logs()} (type {@link LogType#BROWSER}).
     */
    public static ChromeDriver start(Path profile) {
        ensureInstalled();
        System.setProperty("webdriver.chrome.driver", DRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,1500", "--user-data-dir=" + profile.toAbsolutePath());
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        options.setExperimentalOption("prefs", Map.of("credentials_enable_service", false,
                "profile.password_manager_enabled", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File("target/chromedriver.log"))
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
        return driver;
    }
}
