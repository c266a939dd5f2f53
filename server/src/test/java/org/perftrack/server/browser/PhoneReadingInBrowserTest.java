package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.regressions.StepFixtures;

/**
 * At a phone's width (390 px) what a person came to read is on the screen, not in a column scrolled off to the right
 * of its card: the ratio of a regression's other metrics, and the version the chart's dashed line marks (on the
 * regression's and on the series page). A branch build's values: {@code BranchPagesInBrowserTest}.
 */
class PhoneReadingInBrowserTest extends BrowserTest {

  @Test
  void aRegressionsOtherMetricsAndTheSeriesChartsStepVersionAreOnThePhonesScreen() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    StepFixtures.history(product, machine, "write-64b").forEach(this::upload);

    open("/regressions?product=" + product);
    browser.driver.findElement(By.linkText("write-64b")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));
    assertThat(browser.shownOnPhoneScreen("#other-metrics tbody tr")).singleElement()
        .satisfies(row -> assertThat(row.replace('\n', ' ')).contains("ctx-switches-per-op", "×398"));
    assertThat(browser.shownOnPhoneScreen("#other-metrics tbody tr .ratio")).containsExactly("×398");
    assertThat(browser.shownOnPhoneScreen("#chart .chart-step")).as("the step's version on the regression's chart")
        .containsExactly("▲ " + StepFixtures.STEP);
    browser.screenshot("regression-other-metrics-phone", 390);

    open("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));
    assertThat(browser.shownOnPhoneScreen("#chart .chart-step")).as("the step's version on the series chart")
        .containsExactly("▲ " + StepFixtures.STEP);
    browser.screenshot("series-step-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }
}
