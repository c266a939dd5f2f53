package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.support.FormClient;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * A product's links to what changed, set on its settings page by an admin: a refused template names its field and
 * stores nothing, a saved one shows on the regression page, clearing removes both; the form needs the CSRF token
 * and an admin. Laptop and phone.
 */
class ChangeLinksInBrowserTest extends BrowserTest {

  static final String RANGE = "https://github.com/cygwin/cygwin/compare/{from}...{to}";
  static final String VERSION = "https://cygwin.com/releases/{version}";

  @Test
  void anAdminSetsAndClearsTheTemplatesOnTheProductsSettingsPage() {
    String product = unique("cygwin");
    String machine = unique("xp");
    long id = step(product, machine).get("id").asLong();

    signIn();
    open("/products/" + product);
    browser.driver.findElement(By.linkText("Settings")).click();
    awaitText(By.tagName("h1"), "Settings of " + product);
    assertThat(text(By.cssSelector("nav.crumbs"))).isEqualTo("Admin › " + product + " › Settings");
    assertThat(browser.controlsWithoutVisibleName()).isEmpty();

    type(By.id("version-url"), VERSION);
    type(By.id("range-url"), "https://github.com/cygwin/cygwin/compare/{from}...{head}");
    click("Save links");
    awaitText(By.id("changes-error"), "Range URL (rangeUrl): may use only [{from}, {to}], got {head}");
    assertThat(browser.driver.findElement(By.id("range-url")).getAttribute("value")).as("what was typed is kept")
        .endsWith("{head}");
    assertThat(browser.driver.findElement(By.id("range-url")).getAttribute("aria-invalid")).isEqualTo("true");
    assertThat(http().get("/api/v1/products/" + product + "/change-links").json().get("versionUrl").isNull())
        .as("nothing half-stored").isTrue();
    assertThat(browser.severeConsoleMessages()).as("the refused form is answered 400").singleElement().asString()
        .contains("/change-links", "400");
    browser.screenshot("product-settings-refused-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();

    type(By.id("range-url"), RANGE);
    click("Save links");
    awaitText(By.cssSelector("#changes .note"), "Saved.");
    assertThat(browser.driver.findElement(By.id("version-url")).getAttribute("value")).isEqualTo(VERSION);
    browser.screenshot("product-settings-laptop", 1366);
    browser.screenshot("product-settings-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat(http().getWithToken("/api/v1/audit", ADMIN_TOKEN).body()).contains("product.change-links",
        "range: " + RANGE);

    open("/regressions/" + id);
    assertThat(text(By.id("changes"))).isEqualTo("What changed: changes from 1.5.19-4 to 1.5.24-2 · changes in 1.5.24-2");
    assertThat(browser.driver.findElement(By.cssSelector("#changes a.changes-range")).getAttribute("href"))
        .isEqualTo("https://github.com/cygwin/cygwin/compare/1.5.19-4...1.5.24-2");

    open("/admin/products/" + product);
    click("Clear both links");
    awaitText(By.cssSelector("#changes .note"), "No links to changes: both templates are cleared.");
    assertThat(browser.driver.findElement(By.id("range-url")).getAttribute("value")).isEmpty();
    JsonNode cleared = http().get("/api/v1/products/" + product + "/change-links").json();
    assertThat(cleared.get("versionUrl").isNull() && cleared.get("rangeUrl").isNull()).isTrue();
    open("/regressions/" + id);
    assertThat(browser.driver.findElements(By.id("changes"))).isEmpty();
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void compareAndTheRunPageShowTheLinksOnAPhone() {
    String product = unique("cygwin");
    String machine = unique("xp");
    List<RunUpload> runs = StepFixtures.history(product, machine, "write-64b");
    runs.forEach(this::upload);
    // the templates are set through the API here: the settings form is the first test's subject
    var set = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
            + "/api/v1/products/" + product + "/change-links")).header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + ADMIN_TOKEN).PUT(HttpRequest.BodyPublishers.ofString(
            json(Map.of("versionUrl", VERSION, "rangeUrl", RANGE)))));
    assertThat(set.status()).as(set.body()).isEqualTo(200);

    open("/compare?product=" + product + "&machine=" + machine + "&base=1.5.19-4&head=1.5.24-2");
    assertThat(text(By.id("changes"))).isEqualTo("What changed: changes from 1.5.19-4 to 1.5.24-2 · changes in 1.5.24-2");
    browser.screenshot("compare-changes-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    open("/compare?product=" + product + "&machine=" + machine + "&base=1.5.10-1&head=1.5.24-2");
    assertThat(text(By.id("changes"))).isEqualTo("What changed: changes in 1.5.24-2 (no link to the whole range: the two"
        + " versions are not adjacent)");

    open("/runs/" + runs.get(StepFixtures.VERSIONS.indexOf(StepFixtures.STEP)).id());
    assertThat(text(By.id("caused"))).contains("changes from 1.5.19-4 to 1.5.24-2");
    browser.screenshot("run-changes-laptop", 1366);
    browser.screenshot("run-changes-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void theFormNeedsItsCsrfTokenAndAnAdmin() {
    String product = unique("cygwin");
    step(product, unique("xp"));
    FormClient admin = new FormClient("http://localhost:" + port);
    admin.signIn("admin", ADMIN_PASSWORD);
    assertThat(admin.postWithoutCsrf("/admin/products/" + product + "/change-links", "rangeUrl="
        + FormClient.enc(RANGE)).statusCode()).isEqualTo(403);
    assertThat(admin.post("/admin/products/" + product, "/admin/products/" + unique("none") + "/change-links",
        "rangeUrl=" + FormClient.enc(RANGE)).statusCode()).isEqualTo(404);
    var refused = admin.post("/admin/products/" + product, "/admin/products/" + product + "/change-links",
        "versionUrl=" + FormClient.enc("ftp://example.org/{version}"));
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("Version URL (versionUrl): must be an http or https URL");
    assertThat(http().get("/api/v1/products/" + product + "/change-links").body()).doesNotContain("example.org");

    FormClient anonymous = new FormClient("http://localhost:" + port);
    var signedOut = anonymous.get("/admin/products/" + product);
    assertThat(signedOut.statusCode()).isEqualTo(302);
    assertThat(signedOut.headers().firstValue("Location").orElse("")).as("sent to sign in").endsWith("/login");
  }

  /** The write-64b time-per-op step of a fresh history: its regression as the API lists it. */
  private JsonNode step(String product, String machine) {
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      upload(run);
    }
    return http().get("/api/v1/regressions?product=" + product).json().valueStream()
        .filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow();
  }

  private static void type(By field, String text) {
    WebElement e = browser.driver.findElement(field);
    e.clear();
    e.sendKeys(text);
  }

  private static void click(String button) {
    browser.driver.findElement(By.xpath("//button[normalize-space()='" + button + "']")).click();
  }

  private static String text(By by) {
    return browser.driver.findElement(by).getText();
  }
}
