package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.wire.RunUpload;

/** The regression list's pages, walked by their links as a person sees them: "Older →" and "← Newer". */
class RegressionListInBrowserTest extends BrowserTest {

  @Test
  void aPersonPagesToOlderRegressionsAndBack() {
    String product = unique("cygwin");
    for (RunUpload run : StepFixtures.history(product, unique("xp"), "write-64b")) {
      upload(run);
    }
    // its step, copied 160 times as acknowledged regressions detected a minute apart before it: 161
    jdbc.sql("""
        INSERT INTO regression (series_id, baseline_version_id, version_id, kind, baseline_value, value, ratio,
                                p_value, status, hints, detected_at, updated_at)
        SELECT r.series_id, r.baseline_version_id, r.version_id, r.kind, r.baseline_value, r.value, r.ratio,
               r.p_value, 'acknowledged', r.hints, r.detected_at - g * interval '1 minute', r.updated_at
        FROM regression r JOIN series s ON s.id = r.series_id JOIN product p ON p.id = s.product_id
        CROSS JOIN generate_series(1, 160) AS g
        WHERE p.name = ?""").param(product).update();

    open("/regressions?product=" + product + "&status=all");
    String newest = firstRow();
    assertThat(pager().getText()).contains("Newest first, 100 on this page.", "Older →").doesNotContain("Newer");
    browser.driver.findElement(By.linkText("Older →")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("before="));
    assertThat(pager().getText()).contains("Newest first, 61 on this page.", "← Newer").doesNotContain("Older");
    assertThat(rows()).hasSize(61);
    assertThat(firstRow()).isNotEqualTo(newest);
    assertThat(browser.driver.findElement(By.id("f-status")).getAttribute("value")).isEqualTo("all");
    browser.screenshot("regressions-older-laptop", 1366);
    browser.screenshot("regressions-older-phone", 390);

    browser.driver.findElement(By.linkText("← Newer")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(20)).until(ExpectedConditions.urlContains("after="));
    assertThat(firstRow()).isEqualTo(newest);
    assertThat(rows()).hasSize(100);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void atALaptopsWidthEachFilterLabelStaysOnTheLineOfItsControl() {
    // long names make the product and machine menus wide, so that the bar wraps at 1280 px
    upload(org.perftrack.server.support.Fixtures.run(unique("cygwin-with-a-long-product-name"), "1.5.19-4",
        unique("xp-lab-with-a-long-machine-name"), org.perftrack.server.support.Fixtures.result("write-64b", 18.0)));
    open("/regressions");
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
    try {
      List<WebElement> labels = browser.driver.findElements(By.cssSelector("form[aria-label='Filter regressions'] label"));
      assertThat(labels).extracting(WebElement::getText)
          .containsExactly("Product", "Machine", "Version", "Benchmark", "Status", "Size");
      assertThat(browser.driver.findElement(By.cssSelector("form[aria-label='Filter regressions']")).getRect()
          .getHeight()).as("the bar wraps at this width, so the test says something").isGreaterThan(
              2 * browser.driver.findElement(By.id("f-size")).getRect().getHeight());
      for (WebElement label : labels) {
        org.openqa.selenium.Rectangle l = label.getRect();
        org.openqa.selenium.Rectangle c = browser.driver.findElement(By.id(label.getAttribute("for"))).getRect();
        assertThat(l.getY() + l.getHeight() / 2).as("%s: label %s, control %s", label.getText(), l, c)
            .isBetween(c.getY(), c.getY() + c.getHeight());
        assertThat(l.getX() + l.getWidth()).as("%s: label before its control", label.getText()).isLessThanOrEqualTo(c.getX());
      }
      // where the bar wraps depends on the names in its menus: the same holds at every narrower width of the bar
      List<String> apart = toolbarLabelsAwayFromTheirControls(1280);
      assertThat(apart.get(0)).isEqualTo("read 6");
      assertThat(apart.subList(1, apart.size())).as("labels away from their controls").isEmpty();
      browser.screenshot("regressions-filter-1280", 1280);
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }

  private WebElement pager() {
    return browser.driver.findElement(By.cssSelector("nav[aria-label='Pages of regressions']"));
  }

  private List<WebElement> rows() {
    return browser.driver.findElements(By.cssSelector("table tbody tr"));
  }

  private String firstRow() {
    return rows().get(0).findElement(By.cssSelector("th a")).getAttribute("href");
  }
}
