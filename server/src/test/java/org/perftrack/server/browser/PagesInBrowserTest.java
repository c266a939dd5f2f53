package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/** The pages in a real headless Chromium: charts drawn, names escaped, no script errors, admin through sign-in. */
class PagesInBrowserTest extends BrowserTest {

  private static final String HOSTILE = "<script>alert(1)</script>";
  private static final List<String> MACHINES = List.of("xp-lab-01", "win7-lab-02", "linux-ref");
  private static final List<String> VERSIONS =
      List.of("1.5.19-4", "1.5.21-1", "1.5.24-2", "1.5.25-7", "1.7.1-1", "1.7.5-1", "1.7.7-1", "1.7.9-1");

  private static String product;
  private static String lastRun;
  private static String stepProduct;
  private static String stepMachine;

  @BeforeEach
  void signedOut() {
    open("/login");
    browser.driver.manage().deleteAllCookies();
  }

  @BeforeEach
  void seedOnce() {
    if (product != null) {
      return;
    }
    product = unique("cygwin");
    for (String machine : MACHINES) {
      double speed = 1 + MACHINES.indexOf(machine) * 0.4;
      for (String version : VERSIONS) {
        double step = VERSIONS.indexOf(version) >= 2 ? 2.7 : 1.0;
        RunUpload r = run(product, version, machine,
            result("write-64b", 18 * speed * step, 18.3 * speed * step, 17.8 * speed * step, 18.1 * speed * step),
            result("fork", 75 * speed, 76 * speed, 74 * speed), result(HOSTILE, 1.0, 1.1));
        assertThat(http().postJson("/api/v1/runs", json(r), TOKEN).status()).isEqualTo(201);
        lastRun = r.id();
      }
    }
    stepProduct = unique("cygwin");
    stepMachine = unique("xp");
    for (RunUpload r : StepFixtures.history(stepProduct, stepMachine, "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(r), TOKEN).status()).isEqualTo(201);
    }
  }

  @Test
  void seriesChartIsDrawnWithEveryVersionOfEveryMachine() {
    open("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op");
    WebElement chart = new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));

    assertThat(chart.findElements(By.tagName("canvas"))).isNotEmpty();
    assertThat(chart.getAttribute("data-points")).isEqualTo(String.valueOf(MACHINES.size() * VERSIONS.size()));
    assertThat(chart.getAttribute("data-samples")).isEqualTo(String.valueOf(MACHINES.size() * VERSIONS.size() * 4));
    assertThat(chart.findElement(By.cssSelector(".u-legend")).getText()).contains("xp-lab-01", "linux-ref");
    assertThat(chart.findElements(By.cssSelector(".u-legend .u-value"))).extracting(WebElement::getText)
        .as("the newest values before any hover").startsWith("1.7.9-1").noneMatch(v -> v.contains("—"))
        .hasSize(1 + MACHINES.size());
    assertThat(browser.severeConsoleMessages()).isEmpty();
    // the steps listed under the chart name each machine whole on a phone ("win7-lab-02", not "win7-" over "lab-02")
    assertNamesReadWholeOnAPhone(MACHINES, 2 * MACHINES.size());
    browser.screenshot("series-laptop", 1366);
    browser.screenshot("series-phone", 390);
  }

  @Test
  void aHostileBenchmarkNameIsShownAsTextAndNeverRuns() {
    open("/products/" + product);

    assertThat(browser.driver.findElement(By.linkText(HOSTILE)).getText()).isEqualTo(HOSTILE);
    assertNoAlert();
    open("/products/" + product + "/series?benchmark=" + URLEncoder.encode(HOSTILE, StandardCharsets.UTF_8)
        + "&metric=time-per-op");
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).contains(HOSTILE);
    assertNoAlert();
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void everyPageRendersWithoutScriptErrorsOnLaptopAndPhone() {
    for (var page : List.of(List.of("home", "/"), List.of("product", "/products/" + product),
        List.of("run", "/runs/" + lastRun), List.of("machine", "/machines/xp-lab-01"), List.of("login", "/login"))) {
      open(page.get(1));
      assertThat(browser.severeConsoleMessages()).as(page.get(0)).isEmpty();
      browser.screenshot(page.get(0) + "-laptop", 1366);
      browser.screenshot(page.get(0) + "-phone", 390);
    }
    open("/no/such/page");
    assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
    browser.screenshot("404-laptop", 1366);
  }

  @Test
  void noPageIsWiderThanAPhoneAt390By844() {
    long regression = http().get("/api/v1/regressions?product=" + stepProduct).json().get(0).get("id").asLong();
    for (String path : List.of("/", "/products/" + product,
        "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op",
        "/products/" + stepProduct + "/series?benchmark=write-64b&metric=time-per-op&machine=" + stepMachine,
        "/compare?product=" + stepProduct, "/compare?product=" + stepProduct + "&machine=" + stepMachine,
        "/compare?product=" + product + "&base=1.5.19-4&head=1.7.9-1",
        "/regressions?product=" + stepProduct, "/regressions/" + regression, "/runs/" + lastRun,
        "/machines/xp-lab-01", "/login", "/alerts/subscriptions", "/no/such/page")) {
      open(path);
      assertThat(browser.overflowAtPhoneSize()).as(path).isEmpty();
    }
    assertThat(browser.severeConsoleMessages()).as("only the missing page's own 404")
        .allMatch(m -> m.contains("/no/such/page"));
  }

  @Test
  void onAPhoneHomeShowsEachVersionAndMachineNameOnOneLine() {
    List<String> names = new java.util.ArrayList<>(VERSIONS);
    names.addAll(StepFixtures.VERSIONS);
    names.addAll(MACHINES);
    names.add(stepMachine);
    open("/");
    assertNamesReadWholeOnAPhone(names, MACHINES.size() + 1);
  }

  @Test
  void onAPhoneHomesLatestRunsAndMachinesReadWholeWithoutScrollingTheirCards() {
    String latestProduct = unique("cygwin-latest");
    String latestMachine = unique("win7-lab-02-long-hostname");
    assertThat(http().postJson("/api/v1/runs", json(run(latestProduct, "1.5.25-7", latestMachine,
        result("write-64b", 18, 18.3, 17.8))), TOKEN).status()).isEqualTo(201);
    open("/");
    assertThat(browser.driver.findElements(By.cssSelector("#latest-runs .machine-on-phone")))
        .as("on a laptop the machine has its column, not a second mention under the version").isNotEmpty()
        .noneMatch(WebElement::isDisplayed);
    browser.screenshot("home-laptop", 1366);
    browser.screenshot("home-phone", 390);
    // each latest run's product, version and machine, and each machine's last run, on the screen
    List<String> runs = browser.shownOnPhoneScreen("#latest-runs tbody tr");
    assertThat(runs).as("the latest runs, each row whole on the screen").isNotEmpty();
    assertThat(runs).anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
        .contains(latestProduct + " 1.5.25-7 on " + latestMachine));
    List<String> machines = browser.shownOnPhoneScreen("#machines tbody tr");
    assertThat(machines).as("each machine with its runs and last run on the screen").isNotEmpty()
        .allSatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
            .matches("\\S+ (1 run|\\d+ runs|100\\+ runs) \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d"))
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " ")).startsWith("linux-ref 8 runs "));
    assertThat(runs).allSatisfy(row -> assertThat(row).matches("(?s)\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+\\S+\\s+\\S+\\s+on \\S+"));
  }

  @Test
  void onAPhoneTheDatesOfHomeAndOfTheRegressionPagesReadWhole() {
    open("/");
    assertDatesReadWholeOnAPhone(MACHINES.size() + 1); // machines' last run, the latest runs' received
    open("/regressions?status=all&product=" + stepProduct);
    assertDatesReadWholeOnAPhone(1); // detected
    long regression = http().get("/api/v1/regressions?status=all&product=" + stepProduct).json().get(0).get("id")
        .asLong();
    open("/regressions/" + regression);
    assertDatesReadWholeOnAPhone(2); // detected, and each event of its history
  }

  @Test
  void compareOfAProductThatIsNotThereSaysSoAndPicksNoOtherProduct() {
    String nope = unique("nope");
    open("/compare?product=" + nope + "&base=1.0&head=2.0");
    browser.screenshot("compare-unknown-product-laptop", 1366);
    browser.screenshot("compare-unknown-product-phone", 390);

    assertThat(browser.driver.findElement(By.cssSelector("[role=alert]")).getText())
        .isEqualTo("There is no product " + nope + ".");
    assertThat(new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.id("product")))
        .getFirstSelectedOption().getText()).as("the product menu shows what was asked, not the first product")
        .isEqualTo(nope);
    assertThat(browser.driver.findElement(By.id("base")).getDomProperty("value")).as("kept to correct").isEqualTo("1.0");
    assertThat(browser.driver.findElements(By.cssSelector(".compare-table"))).as("no product's comparison").isEmpty();
    assertThat(browser.driver.getTitle()).isEqualTo("Compare · perftrack");
    assertThat(browser.severeConsoleMessages()).as("the page's own 404, read here so no other test of the class sees it")
        .singleElement().asString().contains("404");
  }

  @Test
  void theVersionFieldsLookLikeTheOtherFieldsOfTheirForms() {
    open("/products/" + product);
    assertThat(look(By.id("base"))).as("Compare … with …").isEqualTo(look(By.id("filter")));
    open("/regressions");
    assertThat(look(By.id("f-version"))).as("the list's version filter").isEqualTo(look(By.id("f-benchmark")));
    open("/compare?product=" + product);
    assertThat(look(By.id("head"))).as("compare's head").isEqualTo(look(By.id("product")));
  }

  /** How a field is drawn: its border, corners and padding (the browser's default field had a square grey inset). */
  private static String look(By field) {
    WebElement e = browser.driver.findElement(field);
    return String.join(" ", e.getCssValue("border-top-style"), e.getCssValue("border-top-color"),
        e.getCssValue("border-top-left-radius"), e.getCssValue("padding-top"), e.getCssValue("padding-left"));
  }

  @Test
  void onAPhoneTheNumberThatMattersIsOnTheScreenBesideTheName() {
    open("/regressions?status=all&product=" + stepProduct); // all: another test of the class triages it
    String change = browser.driver.findElement(By.cssSelector("tbody td.not-on-phone .badge")).getText();
    assertThat(change).as("the Change column on a laptop").contains("slower");
    assertThat(browser.shownOnPhoneScreen("tbody th[scope=row] .badge")).as("the change beside the benchmark")
        .containsExactly(change);
    assertThat(browser.shownOnPhoneScreen("thead th")).as("the rows stack, the laptop's column heads hidden")
        .doesNotContain("Change", "Versions", "Machine");
    // and which versions, on which machine: the Versions and Machine columns were scrolled off to the right
    JsonNode step = http().get("/api/v1/regressions?status=all&product=" + stepProduct).json().get(0);
    assertThat(browser.shownOnPhoneScreen("tbody th[scope=row] .versions-on-phone")).as("the pair under the benchmark")
        .singleElement().asString().startsWith(step.get("baselineVersion").asString() + " → "
            + step.get("version").asString() + " on " + stepMachine);

    open("/runs/" + lastRun);
    List<String> medians = browser.driver.findElements(By.cssSelector("tbody td.median")).stream()
        .map(WebElement::getText).toList();
    assertThat(medians).as("the Median column on a laptop").hasSize(3).allMatch(m -> !m.isBlank());
    List<String> beside = browser.shownOnPhoneScreen("tbody th[scope=row] .median");
    assertThat(beside).as("each result's median with its unit beside the benchmark on a phone").hasSize(3);
    for (int i = 0; i < medians.size(); i++) {
      assertThat(beside.get(i)).isEqualTo(medians.get(i) + " us");
    }
    assertThat(browser.shownOnPhoneScreen("thead th")).contains("Benchmark").doesNotContain("Min", "Median", "Mean");
  }

  @Test
  void theSeriesChartSwitchesToALogScaleAndBack() {
    open("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op");
    WebElement chart = new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-scale]")));
    assertThat(chart.getAttribute("data-scale")).isEqualTo("linear");

    browser.driver.findElement(By.id("log-scale")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.attributeToBe(By.id("chart"), "data-scale", "log"));
    assertThat(browser.driver.findElements(By.cssSelector("#chart .uplot"))).hasSize(1);
    browser.driver.findElement(By.id("log-scale")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.attributeToBe(By.id("chart"), "data-scale", "linear"));
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void theProductPageFilterBoxHidesTheRowsThatDoNotMatch() {
    open("/products/" + product);
    int rows = browser.driver.findElements(By.cssSelector("#benchmarks tbody tr")).size();

    browser.driver.findElement(By.id("filter")).sendKeys("fork");

    assertThat(rows).isEqualTo(3);
    assertThat(browser.driver.findElements(By.cssSelector("#benchmarks tbody tr:not([hidden])")))
        .extracting(WebElement::getText).singleElement().asString().startsWith("fork");
    assertThat(browser.driver.findElement(By.id("filter-count")).getText()).isEqualTo("1 of 3 shown");
  }

  @Test
  void theCompareTableSortsByAColumnWhenItsHeaderIsPressed() {
    open("/compare?product=" + stepProduct + "&base=1.5.19-4&head=1.5.24-2&machine=" + stepMachine);
    List<String> before = benchmarkColumn();
    WebElement change = browser.driver.findElement(By.xpath("//table[contains(@class,'compare-table')]//th//button[contains(., 'Change')]"));

    change.click();
    List<String> ascending = benchmarkColumn();
    change.click();
    List<String> descending = benchmarkColumn();

    assertThat(ascending).hasSameElementsAs(before);
    assertThat(ascending.get(0)).isEqualTo("fork");
    assertThat(descending.get(0)).isEqualTo("write-64b");
    assertThat(browser.severeConsoleMessages()).isEmpty();
    browser.screenshot("compare-laptop", 1366);
    browser.screenshot("compare-phone", 390);
  }

  @Test
  void aChangeFromZeroSortsAsTheLargestChangeBothWaysAndARowWithoutAChangeStaysLast() {
    String zeros = unique("zeros");
    List<String> machines = List.of(unique("xp"), unique("win7"));
    for (String machine : machines) {
      upload(run(zeros, "1.0", machine, result("faults", 0, 0, 0, 0, 0), result("write-64b", 18, 18.2, 17.9, 18.1),
          result("page-ins", 0, 0, 0, 0, 0),
          result("fork", 75, 75.2, 74.9, 75.1), result("read-4k", 20, 20.1, 19.9, 20), result("idle", 0, 0, 0, 0)));
      upload(run(zeros, "2.0", machine, result("faults", 3, 3, 4, 3, 2), result("write-64b", 48, 48.2, 47.9, 48.1),
          result("page-ins", 5, 6, 5, 4, 5),
          result("fork", 75.1, 75, 75.2, 74.9), result("read-4k", 10, 10.1, 9.9, 10), result("idle", 0, 0, 0, 0)));
    }
    // ratios: read-4k ×0.5, fork ×1, write-64b ×2.67, faults and page-ins from 0 (equal: they keep their order);
    // idle 0 to 0 has none ("—")
    List<String> up = List.of("read-4k", "fork", "write-64b", "faults", "page-ins", "idle");
    List<String> down = List.of("faults", "page-ins", "write-64b", "fork", "read-4k", "idle");

    open("/compare?product=" + zeros + "&base=1.0&head=2.0&machine=" + machines.get(0));
    assertThat(sortedBy("table.per-machine", "Change")).as("Change, ascending").isEqualTo(up);
    assertThat(sortedBy("table.per-machine", "Change")).as("Change, descending").isEqualTo(down);

    open("/compare?product=" + zeros + "&base=1.0&head=2.0");
    assertThat(sortedBy("table.all-machines", "Middle change")).as("Middle change, ascending").isEqualTo(up);
    assertThat(sortedBy("table.all-machines", "Middle change")).as("Middle change, descending").isEqualTo(down);
    assertThat(sortedBy("table.all-machines", "Range")).as("Range, ascending").isEqualTo(up);
    assertThat(sortedBy("table.all-machines", "Range")).as("Range, descending").isEqualTo(down);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  /** Presses the sort button of {@code table}'s column headed {@code header}; the benchmarks in their order then. */
  private static List<String> sortedBy(String table, String header) {
    browser.driver.findElement(By.xpath("//table[contains(concat(' ', @class, ' '), ' " + table.substring(6)
        + " ')]//thead//button[normalize-space(.)='" + header + "']")).click();
    return browser.driver.findElements(By.cssSelector(table + " tbody th[scope=row] a")).stream()
        .map(WebElement::getText).toList();
  }

  @Test
  void someoneSignsInAndTriagesARegressionFromItsPage() {
    open("/regressions?product=" + stepProduct);
    browser.screenshot("regressions-laptop", 1366);
    browser.driver.findElement(By.linkText("write-64b")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#chart[data-points]")));
    browser.screenshot("regression-laptop", 1366);
    browser.screenshot("regression-phone", 390);
    String regression = browser.driver.getCurrentUrl();

    browser.driver.findElement(By.linkText("Sign in")).click();
    browser.driver.findElement(By.id("username")).sendKeys("admin");
    browser.driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    browser.driver.findElement(By.cssSelector("form button[type=submit]")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.not(ExpectedConditions.urlContains("/login")));
    browser.open(regression);
    browser.driver.findElement(By.cssSelector("input[name=status][value=acknowledged]")).click();
    browser.driver.findElement(By.id("note")).sendKeys("bisecting the signal path");
    browser.driver.findElement(By.xpath("//button[text()='Save']")).click();

    awaitText(By.cssSelector(".lead"), "acknowledged");
    assertThat(browser.driver.findElement(By.cssSelector(".lead")).getText()).contains("by admin");
    assertThat(browser.driver.findElement(By.cssSelector(".note-text")).getText()).contains("bisecting the signal path");
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  @Test
  void anAdminSignsInAndCreatesATokenThatUploads() {
    open("/admin");
    assertThat(browser.driver.getCurrentUrl()).endsWith("/login");
    browser.driver.findElement(By.id("username")).sendKeys("admin");
    browser.driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    browser.driver.findElement(By.cssSelector("form button[type=submit]")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/admin"));

    browser.driver.findElement(By.id("token-name")).sendKeys("browser-made");
    browser.driver.findElement(By.xpath("//button[text()='Create token']")).click();
    String token = new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.presenceOfElementLocated(By.id("new-token"))).getText();
    browser.screenshot("admin-laptop", 1366);
    browser.screenshot("admin-phone", 390);

    assertThat(token).startsWith("pt_");
    RunUpload r = run(unique("cygwin"), "1.0", unique("ci"), result("fork", 1.0));
    assertThat(http().postJson("/api/v1/runs", json(r), token).status()).isEqualTo(201);
    browser.driver.navigate().refresh();
    assertThat(browser.driver.findElements(By.id("new-token"))).as("the token is shown once").isEmpty();
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  /** The benchmark names of the compare table, top to bottom. */
  private static List<String> benchmarkColumn() {
    return browser.driver.findElements(By.cssSelector("table.compare-table tbody th[scope=row] a")).stream()
        .map(WebElement::getText).toList();
  }

  private static void assertNoAlert() {
    try {
      browser.driver.switchTo().alert();
      throw new AssertionError("a script from a benchmark name ran");
    } catch (NoAlertPresentException expected) {
      // nothing ran
    }
  }
}
