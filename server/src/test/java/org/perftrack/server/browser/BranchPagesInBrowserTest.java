package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A pull request's branch on the pages, as a person meets it: from the product page to the branch page, from a
 * build to its comparison with the start point, the compare page's "Head from" picker, and the branch's deletion
 * with its confirmation page and Restore.
 */
class BranchPagesInBrowserTest extends BrowserTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp-lab");

  @Test
  void aBranchBuildIsComparedWithItsStartPointAndTheBranchIsDeletedAndRestored() {
    for (String version : List.of("1.5.19-1", "1.5.19-2", "1.5.19-3", "1.5.19-4")) {
      upload(run(product, version, machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0),
          result("fork", 75.0, 75.2, 74.9, 75.1, 75.0)));
    }
    upload(run(product, "1.5.19-4+pr5.1", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1),
        result("fork", 75.1, 75.0, 74.8, 75.2, 75.0)).onBranch("pr-5", "1.5.19-3"));
    signIn();

    open("/products/" + product);
    // on a phone the branch's last build reads whole ("last 2026-12-02 20:45", not the time on the next line)
    assertDatesReadWholeOnAPhone(1);
    browser.driver.findElement(By.id("branches")).findElement(By.linkText("pr-5")).click();
    awaitText(By.tagName("h1"), "Branch pr-5 of " + product);
    assertThat(browser.driver.findElement(By.id("build-" + buildId())).getText())
        .contains("1.5.19-4+pr5.1 on " + machine, "against 1.5.19-3", "1 regression", "2.67× slower");
    browser.screenshot("branch-laptop", 1366);
    // on a phone each verdict, change, the two values and p are read beside the benchmark, not in columns scrolled
    // off to the right, and a metric reads whole ("time-per-op", not "time-per-" over "op")
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      WebElement slow = browser.driver.findElement(By.xpath("//tr[contains(@class, 'verdict-regression')]/td[1]"));
      assertThat(slow.getText().replace('\n', ' '))
          .isEqualTo("write-64b regression 2.67× slower 18.03 us → 48.1 us, p < 0.001");
      assertThat(browser.shownOnPhoneScreen("tr.verdict-regression .values-on-phone"))
          .containsExactly("18.03 us → 48.1 us, p < 0.001");
      WebElement badge = slow.findElement(By.cssSelector(".badge.regression"));
      assertThat(badge.getRect().getX() + badge.getRect().getWidth()).as("the verdict within the screen")
          .isLessThanOrEqualTo(390);
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertNamesReadWholeOnAPhone(List.of("time-per-op", "1.5.19-3"), 2);
    browser.screenshot("branch-phone", 390);

    browser.driver.findElement(By.linkText("Compare with 1.5.19-3")).click();
    awaitText(By.cssSelector(".compare-head h2"), "1.5.19-3 → 1.5.19-4+pr5.1 (branch pr-5)");
    assertThat(browser.driver.findElement(By.id("head-branch")).getAttribute("value")).isEqualTo("pr-5");
    assertThat(browser.driver.findElement(By.cssSelector(".compare-table tbody")).getText())
        .contains("write-64b", "regression");
    browser.screenshot("compare-branch-laptop", 1366);

    // the picker: from the default branch's comparison to the branch's newest build against its start point
    open("/compare?product=" + product + "&machine=" + machine);
    awaitText(By.cssSelector(".compare-head h2"), "1.5.19-3 → 1.5.19-4");
    // a search field (a product may have a thousand branches), suggesting the recent ones
    assertThat(browser.driver.findElements(By.cssSelector("#recent-branches option")).stream()
        .map(o -> o.getAttribute("value")).toList()).contains("pr-5");
    browser.driver.findElement(By.id("head-branch")).sendKeys("pr-5", org.openqa.selenium.Keys.TAB);
    assertThat(browser.driver.findElement(By.id("head")).getAttribute("value")).as("emptied for the branch").isEmpty();
    browser.driver.findElement(By.xpath("//form[@aria-label='What to compare']//button[text()='Compare']")).click();
    awaitText(By.cssSelector(".compare-head h2"), "1.5.19-3 → 1.5.19-4+pr5.1 (branch pr-5)");

    open("/products/" + product + "/branches/pr-5");
    browser.driver.findElement(By.linkText("Delete this branch…")).click();
    awaitText(By.id("what-goes"), "1 build of this branch");
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("Delete branch pr-5 of " + product + "?");
    assertThat(browser.driver.findElement(By.id("what-goes")).getText())
        .contains("nothing of the default branch");
    browser.screenshot("branch-delete-laptop", 1366);
    browser.driver.findElement(By.xpath("//button[text()='Delete']")).click();
    awaitText(By.cssSelector(".note"), "Deleted branch pr-5 of " + product + " (1 build)");
    open("/products/" + product);
    assertThat(browser.driver.findElements(By.id("branches"))).as("no branch left to list").isEmpty();

    open("/admin/deleted");
    browser.driver.findElement(By.xpath("//tr[td[contains(., 'branch pr-5 of " + product + "')]]//button[text()='Restore']"))
        .click();
    awaitText(By.cssSelector(".note"), "Restored branch pr-5 of " + product);
    open("/products/" + product + "/branches/pr-5");
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("Branch pr-5 of " + product);
    open("/admin/audit");
    assertThat(browser.driver.findElement(By.tagName("table")).getText())
        .contains("deleted", "restored", "branch pr-5 of " + product);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  private String buildId() {
    return http().getWithToken("/api/v1/branches/pr-5?product=" + product, TOKEN).json().get("builds").get(0).get("id")
        .asString();
  }

}
