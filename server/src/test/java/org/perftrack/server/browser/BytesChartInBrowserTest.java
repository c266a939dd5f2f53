package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.sessionSamples;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/** A series of Google Benchmark's bytes_per_second (B/s, about 3e9): its chart's legend reads GB/s as people do. */
class BytesChartInBrowserTest extends BrowserTest {

  @Test
  void aBandwidthChartWritesItsValuesInGigabytesASecond() {
    Random random = new Random(30);
    String product = unique("memlib");
    String machine = unique("xp");
    for (String v : List.of("1.0", "1.1", "1.2")) {
      upload(run(product, v, machine, new ResultUpload("BM_memcpy/65536", "bytes-per-second", "B/s",
          RunUpload.HIGHER_IS_BETTER, sessionSamples(random, 3.18e9))));
    }

    open("/products/" + product + "/series?benchmark=BM_memcpy/65536&metric=bytes-per-second");
    WebElement chart = new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));

    assertThat(chart.findElements(By.cssSelector(".u-legend .u-value"))).extracting(WebElement::getText)
        .as("the newest values before any hover").hasSize(2).last().asString()
        .matches("3\\.\\d+ GB/s \\(3\\.\\d+–3\\.\\d+\\)");
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }
}
