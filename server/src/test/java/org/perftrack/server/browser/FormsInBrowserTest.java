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
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.summaries.Seed003;
import tools.jackson.databind.JsonNode;

/**
 * Every control of every form, signed in as an admin (who sees every form), has a name a person can read:
 * an empty label is as unusable as a missing button. And the way from a regression back to its summary.
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
    JsonNode created = upload(batched(Seed003.run(product, machine, "1.5.24-2", 48, 3000), batch));
    long summary = created.get("summaries").get(0).get("id").asLong();
    long regression = created.get("regressions").get(0).get("id").asLong();
    signIn();

    Map<String, List<String>> unnamed = new LinkedHashMap<>();
    for (String path : List.of("/", "/products/" + product,
        "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op&machine=" + machine,
        "/compare?product=" + product, "/compare?base=" + linux + "@6.1.0&head=" + product + "@1.5.24-2",
        "/regressions?product=" + product, "/regressions/" + regression, "/summaries/" + summary,
        "/machines/" + machine, "/lab", "/admin", "/admin/outbox", "/alerts/subscriptions")) {
      open(path);
      unnamed.put(path, browser.controlsWithoutVisibleName());
    }
    open("/summaries/" + summary);
    assertThat(browser.driver.findElements(By.cssSelector(".triage-form input[name=status]")))
        .as("the triage form is there to be read").hasSize(5);
    browser.driver.manage().deleteAllCookies();
    open("/login");
    unnamed.put("/login", browser.controlsWithoutVisibleName());

    assertThat(unnamed).allSatisfy((path, controls) -> assertThat(controls).as(path).isEmpty());
    assertThat(browser.severeConsoleMessages()).isEmpty();
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
