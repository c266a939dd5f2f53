package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.wire.RunUpload;

/**
 * Notes on the charts in Chromium at laptop (1366) and phone (390) width: a note added, refused and deleted with undo
 * on /annotations; the antivirus update the server noted, as a mark on the series chart, near the regression ("2
 * machines had an antivirus change the same day"), and a summary triaged as infrastructure. Screenshots:
 * target/screenshots/annotations-*.png.
 */
class AnnotationsInBrowserTest extends BrowserTest {

  @Test
  void notesAreAddedDeletedWithUndoMarkedOnChartsAndExplainASummary() {
    String product = unique("cygwin");
    List<String> machines = List.of(unique("xp-lab"), unique("xp-office"));
    for (String machine : machines) {
      for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
        upload(run);
      }
    }
    signIn();

    open("/annotations?product=" + product);
    fill(product, machines.get(0), "ftp://example.org/kb");
    assertThat(text(".annotation-form")).doesNotContain("Windows update");
    assertThat(browser.driver.findElement(By.cssSelector("#add .alert")).getText())
        .isEqualTo("link: must be an http or https address (https://…).");
    assertThat(browser.driver.findElement(By.id("text")).getAttribute("value")).as("what was typed is kept")
        .isEqualTo("Windows update KB4012212");
    browser.driver.findElement(By.id("link")).clear();
    browser.driver.findElement(By.id("link")).sendKeys("https://support.microsoft.com/kb/4012212");
    browser.driver.findElement(By.cssSelector(".annotation-form button[type=submit]")).click();
    awaitText(By.cssSelector(".note[role=status]"), "Note added: Windows update KB4012212 (version 1.5.24-2, "
        + product + " on " + machines.get(0) + ").");
    WebElement added = browser.driver.findElement(By.xpath("//ul[@class='annotations']/li[contains(., 'KB4012212')]"));
    assertThat(added.getText()).contains("note", "Windows update KB4012212", "link",
        "version 1.5.24-2 · " + product + " on " + machines.get(0), "Delete");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("annotations-laptop", 1366);
    browser.screenshot("annotations-phone", 390);

    added.findElement(By.cssSelector("button")).click();
    awaitText(By.cssSelector(".note[role=status]"), "Deleted annotation");
    assertThat(text("ul.annotations")).doesNotContain("KB4012212");
    browser.driver.findElement(By.xpath("//button[normalize-space()='Undo']")).click();
    awaitText(By.cssSelector(".note[role=status]"), "Note restored.");
    assertThat(text("ul.annotations")).contains("Windows update KB4012212");

    open("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op&machine=" + machines.get(0));
    new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, java.time.Duration.ofSeconds(20))
        .until(d -> !d.findElements(By.cssSelector("#chart canvas")).isEmpty());
    assertThat(text("ul.markers")).contains("note agent saw antivirus NOD32 2.5 → NOD32 2.7",
        "note Windows update KB4012212");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("annotations-series-laptop", 1366);
    browser.screenshot("annotations-series-phone", 390);

    long regression = http().get("/api/v1/regressions?product=" + product + "&machine=" + machines.get(0)).json()
        .valueStream().filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow()
        .get("id").asLong();
    open("/regressions/" + regression);
    String near = text("#annotations");
    assertThat(near).startsWith("Notes near this step").contains(
        "2 machines had an antivirus change the same day", machines.get(0) + ", " + machines.get(1),
        "environment agent saw antivirus NOD32 2.5 → NOD32 2.7", "note Windows update KB4012212");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("annotations-regression-phone", 390);

    long summary = http().get("/api/v1/regressions/" + regression).json().get("summaryId").asLong();
    open("/summaries/" + summary);
    new Select(browser.driver.findElement(By.id("cause"))).selectByVisibleText(
        browser.driver.findElements(By.cssSelector("#cause option")).stream().map(WebElement::getText)
            .filter(t -> t.startsWith("agent saw antivirus")).findFirst().orElseThrow());
    browser.driver.findElement(By.xpath("//button[normalize-space()='Triage as infrastructure']")).click();
    awaitText(By.id("infrastructure"), "Triaged as infrastructure: agent saw antivirus NOD32 2.5 → NOD32 2.7");
    assertThat(text("#triage")).contains("infrastructure: agent saw antivirus NOD32 2.5 → NOD32 2.7");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("annotations-summary-laptop", 1366);
    browser.screenshot("annotations-summary-phone", 390);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  private void fill(String product, String machine, String link) {
    browser.driver.findElement(By.id("text")).sendKeys("Windows update KB4012212");
    browser.driver.findElement(By.id("version")).sendKeys(StepFixtures.STEP);
    new Select(browser.driver.findElement(By.id("product"))).selectByVisibleText(product);
    new Select(browser.driver.findElement(By.id("machine"))).selectByVisibleText(machine);
    browser.driver.findElement(By.id("link")).sendKeys(link);
    browser.driver.findElement(By.cssSelector(".annotation-form button[type=submit]")).click();
    awaitText(By.cssSelector("#add .alert"), "link");
  }

  private static String text(String css) {
    return browser.driver.findElement(By.cssSelector(css)).getText();
  }
}
