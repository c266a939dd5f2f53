package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.lab.FakeAgent;
import org.perftrack.server.summaries.Seed003;
import org.perftrack.server.support.Http;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * Every control of every form, signed in as an admin (who sees every form), has a name a person can read:
 * an empty label is as unusable as a missing button; a toolbar's label stays on its control's line however its bar
 * wraps. And the way from a regression back to its summary.
 */
class FormsInBrowserTest extends BrowserTest {

  @Test
  void everyControlOnEveryFormShowsItsName() {
    String product = unique("cygwin");
    String linux = unique("linux");
    String machine = unique("xp-lab");
    String batch = UUID.randomUUID().toString();
    upload(batched(Seed003.run(linux, machine, "6.1.0", 1.1, 1), batch));
    upload(batched(Seed003.run(product, machine, "1.5.19-4", 18, 1), batch));
    RunUpload newest = Seed003.run(product, machine, "1.5.24-2", 48, 3000);
    JsonNode created = upload(batched(newest, batch));
    upload(Seed003.run(product, machine, "1.5.24-2+pr7.1", 48, 3000).onBranch("pr-7", "1.5.24-2"));
    long summary = created.get("summaries").get(0).get("id").asLong();
    long regression = created.get("regressions").get(0).get("id").asLong();
    long agent = new FakeAgent(http(), TOKEN, product, machine).register("1.5.19-4", "1.5.24-2");
    assertThat(http().postJson("/api/v1/lab/schedules",
        "{\"product\": \"" + product + "\", \"cron\": \"0 0 2 * * *\"}", ADMIN_TOKEN).status()).isEqualTo(200);
    Http.Response subscribed = http().postJson("/api/v1/subscriptions",
        "{\"email\": \"" + unique("dev") + "@example.org\", \"product\": \"" + product + "\"}", ADMIN_TOKEN);
    assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(201);
    String unsubscribe = jdbc.sql("SELECT unsubscribe_token FROM alert_subscription WHERE id = ?")
        .param(subscribed.json().get("id").asLong()).query(String.class).single();
    signIn();
    // something deleted, so that Recently deleted shows its Restore button
    RunUpload scratch = Seed003.run(unique("scratch"), machine, "1.0", 10, 1);
    upload(scratch);
    open("/admin/runs/" + scratch.id() + "/delete");
    browser.driver.findElement(By.id("confirm-delete")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/admin/deleted"));

    Map<String, List<String>> unnamed = new LinkedHashMap<>();
    for (String path : List.of("/", "/products/" + product,
        "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op&machine=" + machine,
        "/products/" + product + "/branches/pr-7",
        "/compare?product=" + product, "/compare?product=" + product + "&machine=" + machine,
        "/compare?base=" + linux + "@6.1.0&head=" + product + "@1.5.24-2",
        "/regressions?product=" + product, "/regressions/" + regression, "/summaries/" + summary,
        "/runs/" + newest.id(), "/machines/" + machine, "/lab", "/admin", "/admin/outbox", "/admin/audit",
        "/admin/deleted", "/admin/machines/" + machine, "/admin/runs/" + newest.id() + "/delete",
        "/admin/versions/delete?product=" + product + "&version=1.5.19-4", "/admin/products/" + product + "/delete",
        "/admin/machines/" + machine + "/delete", "/admin/branches/delete?product=" + product + "&branch=pr-7",
        "/admin/lab/agents/" + agent + "/delete", "/alerts/subscriptions", "/alerts/unsubscribe?token=" + unsubscribe)) {
      open(path);
      assertThat(browser.driver.getTitle()).as(path + " is the page, not an error").doesNotMatch("\\d{3} · perftrack");
      unnamed.put(path, browser.controlsWithoutVisibleName());
    }
    open("/summaries/" + summary);
    assertThat(browser.driver.findElements(By.cssSelector(".triage-form input[name=status]")))
        .as("the triage form is there to be read").hasSize(5);
    assertThat(browser.driver.findElements(By.cssSelector(".triage-form label.radio"))).extracting(WebElement::getText)
        .containsExactly("open", "acknowledged", "invalid", "fixed", "won't fix");
    browser.driver.manage().deleteAllCookies();
    open("/login");
    unnamed.put("/login", browser.controlsWithoutVisibleName());

    assertThat(unnamed).allSatisfy((path, controls) -> assertThat(controls).as(path).isEmpty());
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void atALaptopsWidthAndNarrowerEachToolbarLabelStaysOnTheLineOfItsControl() {
    // long names make the compare bar's menus wide, so that it wraps at 1280 px
    String product = unique("cygwin-with-a-long-product-name");
    String linux = unique("linux");
    String machine = unique("xp-lab-with-a-long-machine-name");
    upload(Seed003.run(linux, machine, "6.1.0", 1.1, 1));
    upload(Seed003.run(product, machine, "1.5.19-4", 18, 1));
    RunUpload newest = Seed003.run(product, machine, "1.5.24-2", 48, 3000);
    upload(newest);
    upload(Seed003.run(product, machine, "1.5.24-2+pr7.1", 48, 3000).onBranch("pr-7-with-a-long-branch-name", "1.5.24-2"));
    signIn();

    open("/compare?product=" + product);
    assertThat(browser.driver.findElements(By.cssSelector("form[aria-label='What to compare'] label")))
        .extracting(WebElement::getText).containsExactly("Product", "Base", "Head from", "Head", "Machine");
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
    try {
      assertThat(browser.driver.findElement(By.cssSelector("form[aria-label='What to compare']")).getRect().getHeight())
          .as("the bar wraps at this width, so the test says something")
          .isGreaterThan(2 * browser.driver.findElement(By.id("machine")).getRect().getHeight());
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    browser.screenshot("compare-bar-1280", 1280);
    Map<String, List<String>> apart = new LinkedHashMap<>();
    Map<String, String> read = new LinkedHashMap<>();
    for (String path : List.of("/compare?product=" + product, "/compare?product=" + product + "&machine=" + machine,
        "/compare?base=" + linux + "@6.1.0&head=" + product + "@1.5.24-2&machine=" + machine,
        "/products/" + product, "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op",
        "/regressions?product=" + product, "/runs/" + newest.id(), "/admin", "/admin/audit", "/admin/deleted",
        "/admin/machines/" + machine)) {
      open(path);
      List<String> found = toolbarLabelsAwayFromTheirControls(1280);
      read.put(path, found.get(0));
      apart.put(path, found.subList(1, found.size()));
    }
    assertThat(read).as("labels read").containsEntry("/compare?product=" + product, "read 5")
        .containsEntry("/runs/" + newest.id(), "read 2").containsEntry("/admin/deleted", "read 2")
        .doesNotContainValue("read 0");
    assertThat(apart).allSatisfy((path, labels) -> assertThat(labels).as(path).isEmpty());
  }

  @Test
  void atALaptopsWidthNoButtonOrMenuIsCutOffAtTheRightOfItsCard() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    upload(Seed003.run(product, machine, "1.5.19-4", 18, 1));
    JsonNode created = upload(Seed003.run(product, machine, "1.5.24-2", 48, 3000));
    long summary = created.get("summaries").get(0).get("id").asLong();
    open("/login");
    browser.driver.manage().deleteAllCookies(); // signed out whatever the test before left
    signIn();
    open("/admin");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.id("token-name")))
        .sendKeys(unique("xp-lab-01 agent"));
    browser.driver.findElements(By.cssSelector("fieldset.scopes input[type=checkbox]")).stream()
        .filter(box -> !box.isSelected()).forEach(WebElement::click);
    browser.driver.findElement(By.xpath("//button[text()='Create token']")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.id("new-token")));

    Map<String, List<String>> cut = new LinkedHashMap<>();
    for (String path : List.of("/admin", "/summaries/" + summary)) {
      open(path);
      for (int width : List.of(1366, 1280)) {
        cut.put(path + " at " + width, browser.controlsCutOffAt(width));
      }
    }
    open("/admin");
    browser.screenshot("admin-tokens-1280", 1280);
    assertThat(browser.driver.findElements(By.xpath("//button[text()='Revoke']"))).as("tokens to revoke").hasSizeGreaterThan(1);
    open("/summaries/" + summary);
    assertThat(browser.driver.findElements(By.cssSelector(".overrides select"))).as("a status of a member's own")
        .isNotEmpty();
    assertThat(cut).allSatisfy((where, controls) -> assertThat(controls).as(where).isEmpty());
  }

  @Test
  void theRegressionPageLinksToItsSummary() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    upload(Seed003.run(product, machine, "1.5.19-4", 18, 1));
    JsonNode created = upload(Seed003.run(product, machine, "1.5.24-2", 48, 3000));
    long summary = created.get("summaries").get(0).get("id").asLong();

    open("/regressions/" + created.get("regressions").get(0).get("id").asLong());
    browser.driver.findElement(By.id("summary-link")).click();

    new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/summaries/"));
    assertThat(browser.driver.getCurrentUrl()).endsWith("/summaries/" + summary);
  }
}
