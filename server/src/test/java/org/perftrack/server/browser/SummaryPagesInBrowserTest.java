package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.perftrack.server.summaries.Seed003;

/**
 * Seed 003 on three machines and native Linux measured in the same sessions, in Chromium at laptop
 * (1366) and phone (390 × 844) width: the summary page, the overhead view (compare and series), the
 * home page's summary row, and a summary withdrawn after a backfill. Screenshots: target/screenshots.
 */
class SummaryPagesInBrowserTest extends BrowserTest {

  @Test
  void theSummaryPageAndTheOverheadViewOnLaptopAndPhone() {
    String seed = unique("cygwin");
    String linux = unique("linux");
    List<String> boxes = List.of(unique("xp-lab"), unique("w2k3-lab"), unique("xp-office"));
    long summary = 0;
    for (String box : boxes) {
      String batch = UUID.randomUUID().toString();
      upload(batched(Seed003.run(linux, box, "6.1.0", 1.1, 1), batch));
      upload(batched(Seed003.run(seed, box, "1.5.19-4", 18, 1), batch));
      summary = upload(batched(Seed003.run(seed, box, "1.5.24-2", 48, 3000), batch))
          .get("summaries").get(0).get("id").asLong();
    }

    open("/summaries/" + summary);
    assertThat(browser.driver.findElement(By.id("machines-affected")).getText()).isEqualTo("3 of 3 machines");
    assertThat(browser.driver.findElement(By.id("shared-hints")).getText())
        .contains("ctx-switches-per-op ×3000 in 3 of 3").doesNotContain("3000.00");
    assertThat(browser.driver.findElement(By.cssSelector(".summary-lead")).getText())
        .contains("3 regressions", "worst ×2.67").doesNotContain("(s)");
    assertThat(browser.driver.findElements(By.cssSelector(".summary-table svg.member-chart"))).hasSize(3);
    List<String> names = new java.util.ArrayList<>(boxes);
    names.addAll(List.of("1.5.19-4", "1.5.24-2"));
    assertNamesReadWholeOnAPhone(names, boxes.size() + 2);
    browser.screenshot("summary-laptop", 1366);
    browser.screenshot("summary-phone", 390);
    // on a phone each member reads whole on the screen: its benchmark, change, machine and versions (the benchmark
    // was the third column, scrolled off to the right behind the machine and the change)
    List<String> members = browser.shownOnPhoneScreen(".summary-table tbody th[scope=row]");
    assertThat(members).as("each member's row header on the screen").hasSize(3);
    for (String box : boxes) {
      assertThat(members).anySatisfy(m -> assertThat(m.replaceAll("\\s+", " "))
          .startsWith("write-64b time-per-op · us ×2.67 (18 → 48) on " + box + ", 1.5.19-4 → 1.5.24-2"));
    }
    assertThat(browser.shownOnPhoneScreen(".summary-table thead th")).as("the columns a phone shows")
        .containsExactly("Benchmark · metric", "Status", "Links");

    open("/compare?base=" + linux + "@6.1.0&head=" + seed + "@1.5.24-2&machine=" + boxes.get(0));
    assertThat(browser.driver.findElement(By.id("typical-overhead")).getText()).startsWith("×43");
    assertThat(browser.driver.findElements(By.cssSelector(".overhead-table thead th"))).extracting(e -> e.getText())
        .as("versions in headers as written, not in capitals").contains(linux + "@6.1.0", seed + "@1.5.24-2");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("overhead-laptop", 1366);
    browser.screenshot("overhead-phone", 390);

    open("/products/" + seed + "/series?benchmark=write-64b&metric=time-per-op&machine=" + boxes.get(0) + "&against="
        + linux + "@6.1.0");
    assertThat(browser.driver.findElements(By.id("overhead-summary")))
        .as("the overhead over time on %s", browser.driver.getPageSource()).hasSize(1);
    assertThat(browser.driver.findElement(By.id("overhead-summary")).getText()).contains("in 1.5.19-4", "in 1.5.24-2");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("overhead-series-laptop", 1366);
    browser.screenshot("overhead-series-phone", 390);

    open("/");
    assertThat(browser.driver.findElements(By.cssSelector("a[href='/summaries/" + summary + "']"))).hasSize(1);
    assertThat(browser.driver.findElement(By.xpath("//tr[.//a[@href='/summaries/" + summary + "']]")).getText()).contains("3 on 3 of 3 machines");
    assertThat(browser.shownOnPhoneScreen("tr:has(a[href='/summaries/" + summary + "']) .badge"))
        .as("the worst ratio next to the name on a phone").containsExactly("×2.67");
    assertThat(browser.shownOnPhoneScreen("tr:has(a[href='/summaries/" + summary + "']) td"))
        .as("how many regressions on how many machines, on the screen of a phone").contains("3 on 3 of 3 machines");
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("home-summaries-laptop", 1366);
    browser.screenshot("home-summaries-phone", 390);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void aWithdrawnSummarySaysWhyAndLinksWhereItsMembersWent() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(Seed003.run(product, machine, v, 18, 1)));
    long old = upload(Seed003.run(product, machine, "3.7", 48, 3000)).get("summaries").get(0).get("id").asLong();
    long now = upload(Seed003.run(product, machine, "3.6", 48, 3000)).get("summaries").get(0).get("id").asLong();

    open("/summaries/" + old);
    assertThat(browser.driver.findElement(By.id("withdrawn")).getText()).startsWith("Withdrawn.").contains("3.6");
    assertThat(browser.driver.findElement(By.id("moved-to")).getText()).isEqualTo("Its members are now in:");
    assertThat(browser.driver.findElements(By.cssSelector(".summary-table"))).as("no empty member table").isEmpty();
    browser.driver.findElement(By.cssSelector(".moved-to a")).click();
    assertThat(browser.driver.getCurrentUrl()).endsWith("/summaries/" + now);
    open("/summaries/" + old);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    browser.screenshot("summary-withdrawn-laptop", 1366);
    browser.screenshot("summary-withdrawn-phone", 390);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }
}
