package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.perftrack.server.support.Fixtures;
import tools.jackson.databind.JsonNode;

/**
 * A 10 % step in 6 % noise at version 1.12 of 24 (as SuspectVersionsTest), which detection places between 1.11 and
 * 1.12: the compare page (and its JSON and CSV) of a pair around it and home's "What got slower" row of its summary
 * say where it starts, in the words of the regression page, and so do the regression list and the summary page.
 */
class SuspectRangesInBrowserTest extends BrowserTest {

  private static final String PLACE = "between 1.11 and 1.12 (most likely 1.12)";

  @Test
  void compareAndHomeSayWhereARangedStepStarts() {
    String product = unique("cygwin");
    String machine = unique("xp");
    Fixtures.rangedStep(product, machine).forEach(this::upload);
    JsonNode regression = http().get("/api/v1/regressions?product=" + product).json().get(0);
    assertThat(regression.get("firstSuspect").asString() + ".." + regression.get("lastSuspect").asString())
        .as("the fixture's step is ranged").isEqualTo("1.11..1.12");

    String pair = "?product=" + product + "&machine=" + machine + "&base=1.9&head=1.14";
    open("/compare" + pair);
    WebElement row = browser.driver.findElement(By.cssSelector(".compare-table tbody tr"));
    assertThat(row.getText()).contains("detection: detected", "starts " + PLACE);
    browser.screenshot("compare-ranged-step", 1366);
    // on a phone the verdict and where the step starts are on the screen, not in a column scrolled off to the right
    browser.screenshot("compare-ranged-step-phone", 390);
    assertThat(browser.shownOnPhoneScreen(".compare-table tbody tr .badge")).as("the verdict on a phone")
        .containsExactly(http().get("/api/v1/compare" + pair).json().get("rows").get(0).get("verdict").asString());
    assertThat(browser.shownOnPhoneScreen(".compare-table tbody tr .suspects")).as("where it starts on a phone")
        .containsExactly("starts " + PLACE);
    JsonNode compared = http().get("/api/v1/compare" + pair).json().get("rows").get(0);
    assertThat(compared.get("suspects").toString())
        .isEqualTo("{\"version\":\"1.12\",\"firstSuspect\":\"1.11\",\"lastSuspect\":\"1.12\"}");
    assertThat(http().get("/compare.csv" + pair).body()).contains(",detected,1.11,1.12,1.12,false\r\n");
    assertThat(http().get("/api/v1/compare" + pair.replace("base=1.9&head=1.14", "base=1.1&head=1.4")).json()
        .get("rows").get(0).has("suspects")).as("no step between").isFalse();

    open("/");
    List<String> rows = browser.driver.findElements(By.cssSelector("#open-summaries .summary-row")).stream()
        .map(WebElement::getText).filter(t -> t.contains(product)).toList();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0)).contains("starts " + PLACE);
    browser.screenshot("home-ranged-step", 1366);

    // the regression, the list and the summary page say it in the same words, beside the pair on the list and summary
    open("/regressions/" + regression.get("id").asLong());
    assertThat(browser.driver.findElement(By.id("suspects")).getText()).startsWith("It starts " + PLACE + ":");
    open("/regressions?product=" + product);
    assertThat(browser.driver.findElement(By.cssSelector("table.sortable tbody tr")).getText())
        .contains("1.11 → 1.12\nstarts " + PLACE);
    open("/summaries/" + regression.get("summaryId").asLong());
    assertThat(browser.driver.findElement(By.cssSelector(".summary-table tbody tr")).getText())
        .contains("1.11 → 1.12\nstarts " + PLACE);
  }
}
