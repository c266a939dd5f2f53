package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.wire.RunUpload;

/**
 * What a new user saw on the charts: the series chart's version labels end at their tick, so none runs off the
 * chart's right edge on a phone ("1.5.25-" cut off); the regression page's legend shows the regression's version
 * before any hover, not the newest version of the window.
 */
class SeriesChartOnAPhoneInBrowserTest extends BrowserTest {

  @Test
  void noVersionLabelRunsOffThePhonesChartAndTheRegressionsLegendShowsItsVersion() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      upload(run);
    }
    browser.driver.manage().window().setSize(new Dimension(390, 844));
    try {
      open("/products/" + product + "/series?machine=" + machine + "&benchmark=write-64b&metric=time-per-op");
      chart();
      assertThat(inkAtTheRightEdgeOfTheVersionLabels()).as("label pixels in the chart's last columns").isZero();
    } finally {
      browser.driver.manage().window().setSize(new Dimension(1366, 900));
    }
    browser.screenshot("series-one-machine-phone", 390);

    long id = http().get("/api/v1/regressions?product=" + product).json().valueStream()
        .filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow().get("id").asLong();
    open("/regressions/" + id);
    WebElement chart = chart();
    assertThat(chart.findElements(By.cssSelector(".u-legend .u-value")).get(0).getText())
        .as("before any hover: the regression's version").isEqualTo(StepFixtures.STEP);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  private static WebElement chart() {
    return new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));
  }

  /**
   * The drawn pixels in the last three columns of the chart's canvas, in the band of the version labels under the
   * plot (below the tick marks): text that reaches the edge is cut off there.
   */
  private static long inkAtTheRightEdgeOfTheVersionLabels() {
    return (Long) browser.driver.executeScript("""
        var c = document.querySelector('#chart canvas'), r = window.devicePixelRatio || 1;
        var top = c.height - Math.round(58 * r), d = c.getContext('2d').getImageData(c.width - 3, top, 3, c.height - top).data;
        var ink = 0;
        for (var i = 3; i < d.length; i += 4) if (d[i] > 0) ink++;
        return ink;""");
  }
}
