package dev.keyright.seats.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.openqa.selenium.support.ui.ExpectedConditions.invisibilityOfElementLocated;
import static org.openqa.selenium.support.ui.ExpectedConditions.presenceOfElementLocated;
import static org.openqa.selenium.support.ui.ExpectedConditions.textToBe;
import static org.openqa.selenium.support.ui.ExpectedConditions.visibilityOfElementLocated;

import static dev.keyright.seats.console.AdminPageBrowser.card;
import static dev.keyright.seats.console.AdminPageBrowser.gauge;
import static dev.keyright.seats.console.AdminPageBrowser.holder;
import static dev.keyright.seats.console.AdminPageBrowser.in;

import dev.keyright.seats.testing.OnTheServer;
import dev.keyright.seats.testing.Api;
import dev.keyright.seats.testing.Chromium;
import dev.keyright.seats.testing.Deployments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin page end to end, in a real (headless) Chromium under the page's own Content-Security-Policy:
 * live pools, holders with ticking countdowns, revoking a seat, issuing a license with its one-time key,
 * usage charts. Signing in is HTTP Basic: the first navigation carries the credentials in its URL
 * ({@code http://admin:...@host/admin/}); Chromium keeps them for the realm and answers the admin API's
 * challenges with them, as it would after a person typed them into the browser's sign-in dialog.
 */
@ExtendWith(Chromium.class)
class AdminPageIT extends OnTheServer {

    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The page refreshes its pools every 5 s: a change made elsewhere shows within two or three rounds. */
    private static final Duration POOL_REFRESH = Duration.ofSeconds(16);
    private AdminPageBrowser page;
    private ChromeDriver browser;

    @AfterEach
    void closeBrowser() throws IOException {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void pageIsServedToAdministratorsOnlyUnderAStrictContentSecurityPolicy() {
        Api api = api();
        Api.Reply page = api.admin("GET", "/admin/", null);
        assertEquals(200, page.status(), page.toString());
        assertEquals("text/html;charset=utf-8", normalized(page.contentType()));
        assertEquals("no-store", page.header("Cache-Control"));
        assertSecurityHeaders(page);
        assertTrue(page.body().contains("<script src=\"admin.js\""), "the one script is a file of the page's own");
        assertFalse(page.body().matches("(?s).*<script(?![^>]*\\bsrc=)[^>]*>.*"), "no inline script");
        assertFalse(page.body().matches("(?s).*\\sstyle=.*"), "no inline style attribute");
        assertFalse(page.body().matches("(?s).*(https?:)?//[a-z].*"), "nothing fetched from elsewhere");
        assertEquals(page.body(), api.admin("GET", "/admin/index.html", null).body());

        Api.Reply script = api.admin("GET", "/admin/admin.js", null);
        assertEquals(200, script.status());
        assertEquals("text/javascript;charset=utf-8", normalized(script.contentType()));
        assertFalse(script.body().contains("innerHTML"), "API data reaches the page as text only");
        assertSecurityHeaders(script);
        Api.Reply style = api.admin("GET", "/admin/admin.css", null);
        assertEquals(200, style.status());
        assertEquals("text/css;charset=utf-8", normalized(style.contentType()));
        assertSecurityHeaders(style);

        Api.Reply bare = api.admin("GET", "/admin", null);
        assertEquals(303, bare.status());
        assertEquals("/admin/", bare.header("Location"));
        assertSecurityHeaders(bare);

        for (String unknown : List.of("/admin/secrets.txt", "/admin/..%2FWEB-INF%2Fweb.xml", "/admin/a/admin.js")) {
            Api.Reply missing = api.admin("GET", unknown, null);
            assertEquals(404, missing.status(), unknown);
            assertTrue(missing.contentType().startsWith("application/problem+json"), missing.contentType());
            assertEquals("https://keyright.dev/problems/not-found", missing.json().getString("type"));
        }

        String wrong = "Basic " + Base64.getEncoder().encodeToString("admin:not-the-password".getBytes());
        for (String path : List.of("/admin", "/admin/", "/admin/admin.js")) {
            Api.Reply anonymous = api.send("GET", path, null, Map.of());
            assertEquals(401, anonymous.status(), path);
            assertTrue(anonymous.header("WWW-Authenticate").startsWith("Basic "), "the browser is asked to sign in");
            assertFalse(anonymous.body().contains("<"), "a problem document, not the page");
            assertEquals(401, api.send("GET", path, null, Map.of("Authorization", wrong)).status(), path);
        }
    }

    @Test
    void administratorWatchesAPoolRevokesASeatAndIssuesALicense() throws Exception {
        Api api = api();
        String product = uniqueProduct("ui");
        Api.Reply created = api.admin("POST", "/v1/admin/licenses", Json.createObjectBuilder().add("product", product)
                .add("seats", 3).add("ttlSeconds", 60).add("skewSeconds", 5).add("customer", "<b>Initech</b> & Co")
                .build().toString());
        assertEquals(201, created.status(), created.toString());
        String licenseId = created.json().getString("licenseId");
        String key = created.json().getString("licenseKey");

        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        By card = card(licenseId);
        wait.until(presenceOfElementLocated(card));
        assertEquals("Keyright Seats · Admin", browser.getTitle());
        wait.until(textToBe(gauge(licenseId), "0 of 3 seats in use"));
        WebElement facts = browser.findElement(card).findElement(By.cssSelector(".facts"));
        assertTrue(facts.getText().contains("<b>Initech</b> & Co"), "untrusted text is shown as text: " + facts.getText());
        assertTrue(facts.findElements(By.tagName("b")).isEmpty(), "and never becomes markup");

        // An install takes a seat behind the page's back; the page's own refresh shows it.
        String markup = "<img src=x onerror=\"document.title='owned'\">";
        Api.Reply acquired = api.send("POST", "/v1/seats/acquire", Json.createObjectBuilder().add("product", product)
                .add("licenseKey", key).add("clientInstanceId", "inst-ws-14")
                .add("metadata", Json.createObjectBuilder().add("user", markup).add("host", "lab-ws-14"))
                .build().toString(), Map.of("Content-Type", "application/json"));
        assertEquals(201, acquired.status(), acquired.toString());
        String leaseId = acquired.json().getString("leaseId");
        new WebDriverWait(browser, POOL_REFRESH).until(textToBe(gauge(licenseId), "1 of 3 seats in use"));
        By row = holder(licenseId, leaseId);
        WebElement holder = wait.until(visibilityOfElementLocated(row));
        assertEquals(markup, holder.findElement(By.cssSelector("td.user")).getText());
        assertEquals("lab-ws-14", holder.findElement(By.cssSelector("td.host")).getText());
        assertEquals("inst-ws-14", holder.findElement(By.cssSelector("td.install")).getText());
        assertTrue(holder.findElements(By.tagName("img")).isEmpty());
        assertEquals("Keyright Seats · Admin", browser.getTitle());

        // The countdown to expiresAt ticks in the browser, between two refreshes.
        By expires = in(licenseId, "tr.holder[data-lease-id='" + leaseId + "'] td.expires");
        String before = browser.findElement(expires).getText();
        assertTrue(before.matches("[0-5]?\\d:[0-5]\\d"), "a countdown under the 60 s TTL: " + before);
        new WebDriverWait(browser, Duration.ofSeconds(4)).until(d -> !d.findElement(expires).getText().equals(before));

        // Revoke: the holder disappears and the lease is gone for good.
        browser.findElement(row).findElement(By.cssSelector("button.revoke")).click();
        wait.until(invisibilityOfElementLocated(row));
        wait.until(textToBe(gauge(licenseId), "0 of 3 seats in use"));
        assertEquals(0, api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json().getJsonObject("pool").getInt("inUse"));
        assertEquals(410, api.renew(key, leaseId).status(), "the revoked client's next renew is refused");

        // Usage: a chart, or "no usage data" while the server has no usage report; revoking reloads it.
        assertUsageShown(wait, licenseId, "hour");
        browser.findElement(in(licenseId, "button.range[data-bucket='day']")).click();
        wait.until(d -> "true".equals(d.findElement(in(licenseId, "button.range[data-bucket='day']")).getDomAttribute("aria-pressed")));
        assertEquals("false", browser.findElement(in(licenseId, "button.range[data-bucket='hour']")).getDomAttribute("aria-pressed"));
        assertEquals("Usage · Last 30 days", browser.findElement(in(licenseId, ".usage h4")).getText());
        assertUsageShown(wait, licenseId, "day");

        // Issue a license through the form: its key is shown once, and it is the real key.
        String formProduct = uniqueProduct("form");
        browser.findElement(By.id("create-product")).sendKeys(formProduct);
        browser.findElement(By.id("create-seats")).clear();
        browser.findElement(By.id("create-seats")).sendKeys("4");
        browser.findElement(By.id("create-ttl")).sendKeys("60");
        browser.findElement(By.id("create-customer")).sendKeys("Globex");
        browser.findElement(By.id("create-submit")).click();
        WebElement keyBox = wait.until(visibilityOfElementLocated(By.id("new-key")));
        assertTrue(keyBox.getText().contains("will not be shown again"), keyBox.getText());
        String shownKey = browser.findElement(By.id("new-key-value")).getText();
        String formLicenseId = browser.findElement(By.id("new-key-id")).getText();
        assertTrue(shownKey.matches("[A-Z0-9]+(-[A-Z0-9]+){3,}"), "a license key: " + shownKey);
        assertEquals(formProduct, browser.findElement(By.id("new-key-product")).getText());
        wait.until(textToBe(gauge(formLicenseId), "0 of 4 seats in use"));
        assertEquals("", browser.findElement(By.id("create-product")).getDomProperty("value"), "the form is cleared");
        assertEquals(201, api.acquire(formProduct, shownKey, "inst-ws-21").status(), "the key shown opens the license");
        assertEquals(201, api.acquire(formProduct, shownKey, "inst-ws-22").status());
        new WebDriverWait(browser, POOL_REFRESH).until(textToBe(gauge(formLicenseId), "2 of 4 seats in use"));
        wait.until(d -> d.findElements(in(formLicenseId, "tr.holder")).size() == 2);
        if (api.admin("GET", "/v1/admin/licenses/" + formLicenseId + "/usage", null).status() == 200) {
            // A pool that changed reloads its usage chart (at most every 10 s), without waiting for the minute.
            new WebDriverWait(browser, Duration.ofSeconds(30)).until(presenceOfElementLocated(
                    in(formLicenseId, ".chart svg.usage-chart[data-bucket='hour'] rect.peak")));
        }
        JsonObject listed = api.admin("GET", "/v1/admin/licenses", null).json();
        assertFalse(listed.toString().contains(shownKey), "the server never shows the key again");

        page.screenshot(Path.of("target", "admin-page.png"));

        browser.findElement(By.id("new-key-dismiss")).click();
        wait.until(invisibilityOfElementLocated(By.id("new-key")));
        assertEquals("", browser.findElement(By.id("new-key-value")).getDomProperty("textContent"), "the key leaves the page");

        page.assertNoPageErrors();
        page.assertCspEnforced(WAIT);
    }

    /** The usage of the last 24 hours or 30 days, in which one seat was held (and revoked) a moment ago. */
    @Test
    void theQueueIsShownInItsOrderWithTheGauge() throws Exception {
        Api api = api();
        String product = uniqueProduct("ui");
        JsonObject license = api.createLicense(product, 1, 60, 5);
        String licenseId = license.getString("licenseId");
        String key = license.getString("licenseKey");
        assertEquals(201, api.acquire(product, key, "inst-holder").status());
        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(textToBe(gauge(licenseId), "1 of 1 seats in use"));

        CompletableFuture<Api.Reply> first = api.acquireLater(product, key, "inst-first", Map.of("Prefer", "wait=30"));
        wait.until(d -> api.pool(product, key).json().getInt("queued") == 1);
        CompletableFuture<Api.Reply> second = api.acquireLater(product, key, "inst-second", Map.of("Prefer", "wait=30"));
        try {
            wait.until(d -> api.pool(product, key).json().getInt("queued") == 2);
            new WebDriverWait(browser, POOL_REFRESH).until(textToBe(gauge(licenseId), "1 of 1 seats in use, 2 waiting"));
            List<WebElement> waiting = browser.findElements(in(licenseId, ".queue ol.waiting li"));
            assertEquals(2, waiting.size());
            assertEquals("inst-first", waiting.get(0).getDomAttribute("data-install"), "first come, first shown");
            assertTrue(waiting.get(0).getText().startsWith("user-inst-first@host-1"), waiting.get(0).getText());
            assertEquals("inst-second", waiting.get(1).getDomAttribute("data-install"));
        } finally {
            api.leaveQueue(key, "inst-first");
            api.leaveQueue(key, "inst-second");
        }
        assertEquals(409, first.get(10, TimeUnit.SECONDS).status());
        assertEquals(409, second.get(10, TimeUnit.SECONDS).status());
        new WebDriverWait(browser, POOL_REFRESH).until(textToBe(gauge(licenseId), "1 of 1 seats in use"));
        assertTrue(browser.findElements(in(licenseId, ".queue ol.waiting li")).isEmpty(), "no queue, no list");
        assertEquals(false, browser.findElement(in(licenseId, ".queue")).isDisplayed());
    }

    @Test
    void administratorReplacesALeakedKeyTheOldOneStopsAtOnceTheNewOneIsShownOnce() throws Exception {
        Api api = api();
        String product = uniqueProduct("rekey");
        JsonObject license = api.createLicense(product, 2, 600, 5);
        String licenseId = license.getString("licenseId");
        String oldKey = license.getString("licenseKey");
        String held = api.acquire(product, oldKey, "rekey-a").json().getString("leaseId");

        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(textToBe(gauge(licenseId), "1 of 2 seats in use"));
        browser.findElement(in(licenseId, "details.settings summary")).click();
        wait.until(visibilityOfElementLocated(in(licenseId, "button.replace-key"))).click();
        // asked twice: "keep the key" changes nothing
        wait.until(visibilityOfElementLocated(in(licenseId, "button.cancel-replace-key"))).click();
        assertEquals(200, api.renew(oldKey, held).status(), "kept");
        browser.findElement(in(licenseId, "button.replace-key")).click();
        wait.until(visibilityOfElementLocated(in(licenseId, "button.confirm-replace-key"))).click();
        String newKey = wait.until(visibilityOfElementLocated(in(licenseId, ".new-key code.license-key"))).getText();

        assertFalse(newKey.isBlank() || newKey.equals(oldKey), newKey);
        assertEquals(401, api.renew(oldKey, held).status(), "the old key opens nothing now");
        assertEquals(401, api.release(oldKey, held).status(), "not even to give the seat back, on this node at once");
        assertEquals(401, api.acquire(product, oldKey, "rekey-b").status());
        assertEquals(201, api.acquire(product, newKey, "rekey-b").status(), "the new one does");
        assertFalse(api.admin("GET", "/v1/admin/licenses/" + licenseId, null).body().contains(newKey), "shown once, never again");
        assertEquals(404, api.admin("POST", "/v1/admin/licenses/lic_nope/key", null).status());
        page.assertNoPageErrors();
    }

    /**
     * Basic credentials live in the browser: signing out must make the browser stop sending them, which is
     * what this checks from inside the page (the same fetch the page makes, before and after), without a
     * sign-in failure counted against the address.
     */
    @Test
    void administratorSignsOutAndTheBrowserStopsSendingTheCredentials() throws Exception {
        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(d -> d.findElement(By.id("status")).getText().startsWith("Updated"));
        assertEquals(200L, statusOfPageFetch("../v1/admin/licenses"), "signed in");

        browser.findElement(By.id("sign-out")).click();
        wait.until(textToBe(By.id("status"), "Signed out. Reload the page to sign in again."));
        assertFalse(browser.findElement(By.tagName("main")).isDisplayed(), "nothing of the licenses stays on the page");
        // Without credentials the server challenges the fetch, and headless Chromium holds a challenged fetch at
        // its sign-in prompt (which the script gives up on after 4 s); with them it is answered 200 at once,
        // as just above. Either a 401 or a held fetch means the browser sent none.
        assertTrue(List.of(401L, -2L).contains(statusOfPageFetch("../v1/admin/licenses")), "the browser no longer sends the credentials");
        assertTrue(List.of(401L, -2L).contains(statusOfPageFetch("./")), "nor for the page itself");

        // a sign-out is not a failed sign-in: the right credentials are never slowed or refused after many
        Api api = api();
        for (int i = 0; i < 8; i++) {
            assertEquals(401, api.admin("POST", "/admin/logout", null).status());
        }
        assertEquals(200, api.admin("GET", "/v1/admin/licenses", null).status());
        assertEquals(401, api.send("POST", "/admin/logout", null, Map.of()).status(), "signing out needs the credentials");
    }

    /**
     * The status of a same-origin fetch made by the page itself, with the browser's own credentials (if any);
     * -2 when it was still unanswered after 4 s (held at the browser's sign-in prompt), -1 when it failed.
     */
    private Object statusOfPageFetch(String relative) {
        return browser.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "const url = new URL(arguments[0], document.baseURI); url.username = ''; url.password = '';"
                + "const abort = new AbortController(); const timer = setTimeout(() => abort.abort(), 4000);"
                + "fetch(url.href, {credentials: 'same-origin', cache: 'no-store', signal: abort.signal})"
                + ".then(r => { clearTimeout(timer); done(r.status); }, e => done(e.name === 'AbortError' ? -2 : -1));",
                relative);
    }

    @Test
    void administratorSetsSeatPoliciesSeesOverdraftAndLingerAndRevokesWithABlock() throws Exception {
        Api api = api();
        String product = uniqueProduct("policies");
        Api.Reply created = api.admin("POST", "/v1/admin/licenses", "{\"product\":\"" + product + "\",\"seats\":2,"
                + "\"ttlSeconds\":600,\"skewSeconds\":5,\"overdraftSeats\":1,\"lingerSeconds\":300}");
        assertEquals(201, created.status(), created.toString());
        String licenseId = created.json().getString("licenseId");
        String key = created.json().getString("licenseKey");
        String first = api.acquire(product, key, "pol-a").json().getString("leaseId");
        String second = api.acquire(product, key, "pol-b").json().getString("leaseId");
        Api.Reply third = api.acquire(product, key, "pol-c");
        assertTrue(third.json().getBoolean("overdraft"), third.body());
        String overdraft = third.json().getString("leaseId");
        assertEquals(204, api.release(key, second).status()); // lingers 300 s for pol-b

        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(textToBe(gauge(licenseId), "3 of 2 seats in use (1 out of the overdraft)"));
        assertEquals("overdraft", browser.findElement(holder(licenseId, overdraft)).findElement(By.cssSelector(".tag-overdraft")).getText());
        assertTrue(browser.findElement(holder(licenseId, second)).findElement(By.cssSelector(".tag-lingering")).getText()
                .startsWith("released, lingering until "));
        assertTrue(browser.findElement(holder(licenseId, first)).findElements(By.cssSelector(".tag-overdraft")).isEmpty()
                || !browser.findElement(holder(licenseId, first)).findElement(By.cssSelector(".tag-overdraft")).isDisplayed());
        String facts = browser.findElement(in(licenseId, ".facts")).getText();
        assertTrue(facts.contains("1 seats (1 in use)") && facts.contains("300 s after a release"), facts);

        // A value the server refuses: its message next to the field, and nothing changed.
        browser.findElement(in(licenseId, "details.settings summary")).click();
        WebElement maxPerUser = wait.until(visibilityOfElementLocated(in(licenseId, "input[name='maxPerUser']")));
        maxPerUser.sendKeys("5");
        browser.findElement(in(licenseId, "button.save-settings")).click();
        WebElement error = wait.until(visibilityOfElementLocated(in(licenseId, ".field-error[data-field='maxPerUser']")));
        assertTrue(error.getText().contains("between 1 and seats"), error.getText());
        assertTrue(api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json().isNull("maxPerUser"), "nothing changed");

        // A valid change, with a reservation: saved, and shown.
        maxPerUser.clear();
        maxPerUser.sendKeys("1");
        browser.findElement(in(licenseId, "button.add-reservation")).click();
        browser.findElement(in(licenseId, ".reservation input[name='name']")).sendKeys("ops");
        browser.findElement(in(licenseId, ".reservation input[name='users']")).sendKeys("ops, oncall");
        browser.findElement(in(licenseId, "button.save-settings")).click();
        wait.until(d -> !d.findElement(in(licenseId, "details.settings")).getDomProperty("open").equals("true"));
        JsonObject saved = api.admin("GET", "/v1/admin/licenses/" + licenseId, null).json();
        assertEquals(1, saved.getInt("maxPerUser"));
        assertEquals("ops", saved.getJsonArray("reservations").getJsonObject(0).getString("name"));
        assertEquals(2, saved.getJsonArray("reservations").getJsonObject(0).getJsonArray("users").size());
        assertEquals(2, saved.getInt("seats"), "only what changed was sent");
        wait.until(d -> d.findElement(in(licenseId, ".facts")).getText().contains("at most 1"));

        // Revoke and block for an hour: the holder goes, and its install is refused.
        new org.openqa.selenium.support.ui.Select(browser.findElement(holder(licenseId, first)).findElement(By.cssSelector("select.block-for")))
                .selectByValue("3600");
        browser.findElement(holder(licenseId, first)).findElement(By.cssSelector("button.revoke-block")).click();
        wait.until(invisibilityOfElementLocated(holder(licenseId, first)));
        Api.Reply refused = api.acquire(product, key, "pol-a");
        assertEquals(403, refused.status(), refused.toString());
        assertEquals("https://keyright.dev/problems/install-blocked", refused.json().getString("type"));

        // Overdraft use per bucket, billed, in the usage section (revoking reloads it).
        WebElement overdraftUse = wait.until(visibilityOfElementLocated(in(licenseId, "table.overdraft-use")));
        assertTrue(overdraftUse.getText().contains("1 overdraft checkouts"), overdraftUse.getText());

        // At 420 px the settings and the holders fit: nothing scrolls sideways.
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(420, 900));
        browser.findElement(in(licenseId, "details.settings summary")).click();
        wait.until(visibilityOfElementLocated(in(licenseId, "input[name='maxPerHost']")));
        Object overflow = browser.executeScript("return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertEquals(0L, ((Number) overflow).longValue(), "no sideways scroll at 420 px");
    }

    @Test
    void administratorSeesBorrowedSeatsAndActivatedMachinesAndRevokesAMachine() throws Exception {
        Api api = api();
        String product = uniqueProduct("offline");
        Api.Reply created = api.admin("POST", "/v1/admin/licenses", "{\"product\":\"" + product + "\",\"seats\":2,"
                + "\"ttlSeconds\":600,\"skewSeconds\":5,\"maxBorrowHours\":8}");
        String floatingId = created.json().getString("licenseId");
        String key = created.json().getString("licenseKey");
        String borrowed = api.acquire(product, key, "laptop-1").json().getString("leaseId");
        String plain = api.acquire(product, key, "desk-1").json().getString("leaseId");
        String borrowedUntil = api.borrow(key, borrowed, 8).json().getString("borrowedUntil");
        String machines = uniqueProduct("machines");
        JsonObject nodeLocked = dev.keyright.seats.activations.ActivationsIT.nodeLockedLicense(api, machines, 3, 30);
        String nodeLockedId = nodeLocked.getString("licenseId");
        String first = api.activate(machines, nodeLocked.getString("licenseKey"), "machine-aaaaaaaaaaaa").json().getString("activationId");
        api.activate(machines, nodeLocked.getString("licenseKey"), "machine-bbbbbbbbbbbb");

        page = AdminPageBrowser.open(Deployments.loopback(base), "/admin/");
        browser = page.driver();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        wait.until(textToBe(gauge(floatingId), "2 of 2 seats in use"));
        WebElement borrowedRow = browser.findElement(holder(floatingId, borrowed));
        assertEquals(borrowedUntil, borrowedRow.findElement(By.cssSelector("td.borrowed-until")).getDomAttribute("title"),
                "the Borrowed until column");
        assertTrue(borrowedRow.findElement(By.cssSelector("td.borrowed-until")).getText().matches(".*\\d.*"), "a date is shown");
        assertEquals("borrowed", borrowedRow.findElement(By.cssSelector(".tag-borrowed")).getText());
        assertEquals("—", browser.findElement(holder(floatingId, plain)).findElement(By.cssSelector("td.borrowed-until")).getText());
        assertTrue(browser.findElement(in(floatingId, ".facts")).getText().contains("up to 8 h offline"));

        wait.until(textToBe(gauge(nodeLockedId), "2 of 3 machines activated"));
        assertTrue(browser.findElement(in(nodeLockedId, ".facts")).getText().contains("node-locked: 3 machines, 30 days offline"));
        List<WebElement> rows = browser.findElements(in(nodeLockedId, "tr.activation"));
        assertEquals(2, rows.size());
        assertEquals("machine-aaaaaaaaaaaa", rows.get(0).findElement(By.cssSelector("td.fingerprint")).getText(), "oldest first");
        assertFalse(browser.findElement(in(nodeLockedId, "> .table-wrap")).isDisplayed(),
                "no seat table for a node-locked license");
        browser.findElement(in(nodeLockedId, "tr.activation[data-activation-id='" + first + "'] button.revoke-activation")).click();
        wait.until(textToBe(gauge(nodeLockedId), "1 of 3 machines activated"));
        assertEquals(410, api.refreshActivation(nodeLocked.getString("licenseKey"), first).status(), "revoked on the server");
        page.assertNoPageErrors();
    }

    private void assertUsageShown(WebDriverWait wait, String licenseId, String bucket) {
        Api.Reply report = api().admin("GET", "/v1/admin/licenses/" + licenseId + "/usage?bucket=" + bucket, null);
        int usageStatus = report.status();
        if (usageStatus == 200) {
            String chart = ".chart svg.usage-chart[data-bucket='" + bucket + "']";
            wait.until(d -> !d.findElements(in(licenseId, chart + " rect.peak")).isEmpty());
            assertEquals(report.json().getJsonArray("buckets").size(), browser.findElements(in(licenseId, chart + " g.bucket")).size(),
                    "one bar slot per bucket");
        } else {
            assertEquals(404, usageStatus, "the usage report is there (200) or not yet (404)");
            wait.until(textToBe(in(licenseId, ".chart .chart-message"), "No usage data"));
        }
    }

    private static void assertSecurityHeaders(Api.Reply reply) {
        assertEquals(CSP, reply.header("Content-Security-Policy"));
        assertEquals("nosniff", reply.header("X-Content-Type-Options"));
        assertEquals("DENY", reply.header("X-Frame-Options"));
        assertEquals("no-referrer", reply.header("Referrer-Policy"));
    }

    private static String normalized(String contentType) {
        return contentType == null ? null : contentType.replace(" ", "").toLowerCase(Locale.ROOT);
    }
}
