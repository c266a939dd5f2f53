package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/** Issue 27 on the pages: exclude a run and undo it from the run page, delete a run and restore it. */
class CurationPagesInBrowserTest extends BrowserTest {

  private final Random random = new Random(11);
  private final String product = unique("cygwin");
  private final String machine = unique("xp");

  @Test
  void aSignedInAdminExcludesARunUndoesItDeletesItAndRestoresIt() {
    for (int v = 1; v <= 10; v++) {
      upload("4." + v, 100);
    }
    upload("4.11", 160);
    String test1 = upload("4.12", 100);
    String test2 = upload("4.13", 100);
    assertThat(stepStatus()).isEqualTo("withdrawn");
    signIn();

    for (String id : List.of(test1, test2)) {
      open("/runs/" + id);
      new Select(browser.driver.findElement(By.id("exclude-reason"))).selectByVisibleText("test upload");
      browser.driver.findElement(By.id("exclude-run")).click();
      awaitText(By.id("excluded"), "test upload");
    }
    assertThat(browser.driver.findElement(By.id("excluded")).getText()).contains("Excluded from judgement", "admin");
    assertThat(stepStatus()).as("the step the test versions withdrew is back").isEqualTo("open");
    browser.screenshot("run-excluded-laptop", 1366);
    browser.screenshot("run-excluded-phone", 390);

    browser.driver.findElement(By.id("include-run")).click();
    awaitText(By.cssSelector(".note"), "counted again");
    assertThat(browser.driver.findElements(By.id("excluded"))).isEmpty();

    browser.driver.findElement(By.id("delete-run")).click();
    awaitText(By.id("what-goes"), "this run: ");
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).contains("Delete run " + test2);
    browser.driver.findElement(By.id("confirm-delete")).click();
    awaitText(By.cssSelector(".note"), "Deleted run " + test2);
    browser.screenshot("recently-deleted-laptop", 1366);
    browser.driver.findElement(By.xpath("//tr[td[contains(., '" + test2 + "')]]//button[text()='Restore']")).click();
    awaitText(By.cssSelector(".note"), "Restored run " + test2);
    open("/runs/" + test2);
    assertThat(browser.driver.findElements(By.id("deleted"))).isEmpty();
    open("/admin/audit");
    assertThat(browser.driver.findElement(By.tagName("table")).getText())
        .contains("excluded", "included", "deleted", "restored", "run " + test2);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void anAdminRenamesAMachineAndDeletesAProductAfterItsConfirmationThenRestoresIt() {
    for (int v = 1; v <= 3; v++) {
      upload("5." + v, 100);
    }
    String other = unique("other-box");
    uploadTo(other, "5.1", 100);
    String renamed = unique("new-name");
    open("/");
    browser.driver.manage().deleteAllCookies(); // signed out, whichever test ran first
    signIn();

    open("/machines/" + machine);
    browser.driver.findElement(By.linkText("Rename or merge this machine…")).click();
    awaitText(By.tagName("h1"), "Rename or merge " + machine);
    field("New name").sendKeys(other);
    button("Rename").click();
    awaitText(By.id("rename-error"), "a machine " + other + " exists already; merge " + machine + " into it instead");
    assertThat(field("New name").getAttribute("value")).as("what was typed stays").isEqualTo(other);
    field("New name").clear();
    field("New name").sendKeys(renamed);
    button("Rename").click();
    awaitText(By.tagName("h1"), renamed);
    assertThat(browser.driver.findElement(By.cssSelector(".note")).getText())
        .isEqualTo("Machine " + machine + " renamed to " + renamed + ".");
    assertThat(http().get("/api/v1/series?product=" + product + "&machine=" + renamed
        + "&benchmark=write-64b&metric=time-per-op").json().get("points").size()).isEqualTo(3);

    open("/products/" + product);
    browser.driver.findElement(By.linkText("Delete this product…")).click();
    awaitText(By.tagName("h1"), "Delete product " + product + "?");
    assertThat(browser.driver.findElement(By.id("what-goes")).getText()).contains(
        "3 versions and 4 runs on every machine, with their", "samples in 2 series", "0 steps (0 open)",
        "the product from the home page, lists, charts and comparisons");
    assertThat(browser.driver.findElement(By.linkText("Cancel")).getAttribute("href")).endsWith("/products/" + product);
    button("Delete").click();
    awaitText(By.cssSelector(".note"), "Deleted product " + product);
    assertThat(http().get("/products/" + product).status()).isEqualTo(404);
    browser.driver.findElement(By.xpath("//tr[td[contains(., 'product " + product + "')]]//button[text()='Restore']"))
        .click();
    awaitText(By.cssSelector(".note"), "Restored product " + product);
    open("/products/" + product);
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo(product);
    Http.Response agent = http().postJson("/api/v1/lab/agents", "{\"product\": \"" + product + "\", \"machine\": \""
        + renamed + "\", \"targets\": [\"5.3\"]}", TOKEN);
    assertThat(agent.status()).as(agent.body()).isEqualTo(200);
    long agentId = agent.json().get("id").asLong();
    open("/lab");
    browser.driver.findElement(By.cssSelector("a[aria-label='Delete the agent of " + product + " on " + renamed
        + "…']")).click();
    awaitText(By.tagName("h1"), "Delete the lab agent of " + product + " on " + renamed + "?");
    assertThat(browser.driver.findElement(By.id("what-goes")).getText())
        .contains("a job it runs goes back to the queue", "may be registered again, by any API token");
    button("Delete").click();
    String what = "lab agent " + agentId + " (" + product + " on " + renamed + ")";
    awaitText(By.cssSelector(".note"), "Deleted " + what);
    assertThat(http().postJson("/api/v1/lab/agents/" + agentId + "/heartbeat", "{}", TOKEN).status()).isEqualTo(404);
    browser.driver.findElement(By.xpath("//tr[td[contains(., '" + what + "')]]//button[text()='Restore']")).click();
    awaitText(By.cssSelector(".note"), "Restored " + what);
    assertThat(http().postJson("/api/v1/lab/agents/" + agentId + "/heartbeat", "{}", TOKEN).status()).isEqualTo(200);

    open("/admin/audit");
    assertThat(browser.driver.findElement(By.tagName("table")).getText())
        .contains("renamed", "machine " + machine, "now " + renamed, "product " + product, what);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  /** The input a label with this visible text names. */
  private org.openqa.selenium.WebElement field(String label) {
    String id = browser.driver.findElement(By.xpath("//label[normalize-space()='" + label + "']")).getAttribute("for");
    return browser.driver.findElement(By.id(id));
  }

  private org.openqa.selenium.WebElement button(String text) {
    return browser.driver.findElement(By.xpath("//button[normalize-space()='" + text + "']"));
  }

  private String stepStatus() {
    for (var r : http().get("/api/v1/regressions?status=all&product=" + product).json()) {
      if (r.get("version").asString().equals("4.11")) {
        return r.get("status").asString();
      }
    }
    return null;
  }

  private String upload(String version, double level) {
    return uploadTo(machine, version, level);
  }

  private String uploadTo(String box, String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, box, new ResultUpload(
        "write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, level)))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }

}
