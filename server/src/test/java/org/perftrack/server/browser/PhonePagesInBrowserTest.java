package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The product page and compare at a phone's width (390 px): every machine's name and newest value on the screen
 * whatever the name's length, and a change from 0 (a ratio with no value) said as such next to its verdict. Home's
 * products, the admin's tokens, a regression's history and environments and the regressions list read whole on the
 * screen too, and a regression's chart fits its card once drawn at that width. Home's machines keep their last run
 * in view on a laptop whatever a machine's name.
 */
class PhonePagesInBrowserTest extends BrowserTest {

  @Test
  void onAPhoneTheProductPageShowsEachMachineAndItsValueWhole() {
    String product = unique("cygwin");
    String shortName = unique("xp");
    String longName = unique("win7-lab-02-long-hostname");
    for (String machine : List.of(shortName, longName)) {
      for (String version : List.of("1.0", "1.1", "1.2")) {
        upload(run(product, version, machine, result("write-64b", 18, 18.3, 17.8, 18.1)));
      }
    }
    open("/products/" + product);
    browser.screenshot("product-machines-phone", 390);

    // each value's cell on the screen, its machine named before it (the machine header is not shown on a phone)
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      @SuppressWarnings("unchecked")
      List<String> shown = (List<String>) browser.driver.executeScript("""
          var w = document.documentElement.clientWidth, out = [];
          document.querySelectorAll('#benchmarks tbody td.num').forEach(function (td) {
            var r = td.getBoundingClientRect();
            if (r.width > 0 && r.left >= 0 && r.right <= w) {
              out.push(getComputedStyle(td, '::before').content.replace(/^"|"$/g, '') + ' ' + td.innerText.trim());
            }
          });
          return out;""");
      assertThat(shown).as("each machine with its value on the screen")
          .containsExactlyInAnyOrder(longName + " 18.05", shortName + " 18.05");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onAPhoneCompareOnOneMachineShowsBaseHeadAndPInTheRowWithoutScrollingSideways() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    StepFixtures.history(product, machine, "write-64b").forEach(this::upload);

    open("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2&machine=" + machine);
    browser.screenshot("compare-machine-phone", 390);
    browser.screenshot("compare-machine-laptop", 1366);

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertCardFitsItsTable("table.per-machine");
      assertThat(emptyOtherMetricsHeights("table.per-machine")).as("fork's empty other metrics take no line")
          .isNotEmpty().containsOnly(0L);
      @SuppressWarnings("unchecked")
      List<String> shown = (List<String>) browser.driver.executeScript("""
          var w = document.documentElement.clientWidth, out = [];
          document.querySelectorAll('table.per-machine tbody tr').forEach(function (tr) {
            if (tr.querySelector('th').innerText.indexOf('write-64b') < 0) return;
            tr.querySelectorAll('td').forEach(function (td) {
              var r = td.getBoundingClientRect();
              if (r.width > 0 && r.left >= 0 && r.right <= w) {
                var label = getComputedStyle(td, '::before').content.replace(/^"|"$/g, '');
                out.push(((label === 'none' ? '' : label) + ' ' + td.innerText).replace(/\\s+/g, ' ').trim());
              }
            });
          });
          return out;""");
      assertThat(shown).as("write-64b's base, head, p and other metrics on the phone's screen, each named")
          .hasSize(4)
          .anySatisfy(t -> assertThat(t).matches("1\\.5\\.19-4 1[78](\\.\\d+)? 1[78](\\.\\d+)?–1[78](\\.\\d+)?"))
          .anySatisfy(t -> assertThat(t).matches("1\\.5\\.24-2 4[78](\\.\\d+)? 4[78](\\.\\d+)?–4[78](\\.\\d+)?"))
          .anySatisfy(t -> assertThat(t).matches("p (< )?0\\.\\d+"))
          .anySatisfy(t -> assertThat(t).startsWith("ctx-switches-per-op ×").endsWith("regression"));
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.shownOnPhoneScreen("table.per-machine tbody th[scope=row]")).as("the verdict under the name")
        .anySatisfy(t -> assertThat(t).startsWith("write-64b").contains("regression", "slower"));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();

    // over all machines: the range and the number of machines in the row too
    open("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2");
    browser.screenshot("compare-all-machines-step-phone", 390);
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertCardFitsItsTable("table.all-machines");
      assertThat(emptyOtherMetricsHeights("table.all-machines")).as("fork's empty other metrics take no line")
          .isNotEmpty().containsOnly(0L);
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.shownOnPhoneScreen("table.all-machines tbody td.value")).as("range and machines on the screen")
        .contains("×2.65", "1");
    assertThat(browser.shownOnPhoneScreen("table.all-machines tbody td.others")).as("write-64b's other metrics")
        .anySatisfy(t -> assertThat(t).matches("ctx-switches-per-op ×\\d+ regression"));
  }

  @Test
  void onAPhoneHomesProductsCardReadsWholeWithItsVersionsAndMachines() {
    String product = unique("cygwin-long-product-name");
    for (String machine : List.of(unique("xp-lab"), unique("win7-lab-02-long-hostname"))) {
      for (String version : List.of("1.5.19-4", "1.5.24-2")) {
        upload(run(product, version, machine, result("write-64b", 18, 18.3, 17.8)));
      }
    }
    open("/");
    browser.screenshot("home-products-laptop", 1366);
    browser.screenshot("home-products-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector("#products thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were").containsExactly("Product", "Versions", "Machines", "Latest version");

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertCardFitsItsTable("#products");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.shownOnPhoneScreen("#products tbody tr")).as("the product's row whole on the screen")
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
            .isEqualTo(product + " 2 versions on 2 machines 1.5.24-2"));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onAPhoneTheAdminTokensReadWholeWithTheirDatesAndRevoke() {
    signIn();
    open("/admin");
    browser.driver.findElement(By.id("token-name")).sendKeys("win7-lab-02-long-hostname agent");
    for (String scope : List.of("triage", "admin")) {
      browser.driver.findElement(By.cssSelector("input[name=scope][value=" + scope + "]")).click();
    }
    browser.driver.findElement(By.xpath("//button[text()='Create token']")).click();
    awaitText(By.id("new-token"), "pt_");
    browser.screenshot("admin-tokens-laptop", 1366);
    browser.screenshot("admin-tokens-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector("#tokens thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were")
        .containsExactly("Name", "Scopes", "Created", "Last used", "State", "");

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertCardFitsItsTable("#tokens");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.shownOnPhoneScreen("#tokens tbody tr")).as("the new token's row whole on the screen")
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " ")).matches(
            "win7-lab-02-long-hostname agent upload, read, triage, admin"
                + " created \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d by admin last used never active Revoke"));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onAPhoneARegressionsHistoryReadsWhole() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    StepFixtures.history(product, machine, "write-64b").forEach(this::upload);
    long regression = http().get("/api/v1/regressions?product=" + product).json().get(0).get("id").asLong();

    open("/regressions/" + regression);
    browser.screenshot("regression-history-laptop", 1366);
    browser.screenshot("regression-history-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector("#history thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were")
        .containsExactly("When", "What", "Versions", "Ratio", "p-value", "Why");

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertCardFitsItsTable("#history table");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    assertThat(browser.shownOnPhoneScreen("#history tbody tr")).as("each event whole on the screen").isNotEmpty()
        .allSatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " ")).matches(
            "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\S+ \\S+ → \\S+ ×\\d+\\.\\d+ p (< )?0\\.\\d+ .+"))
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " ")).contains(" opened 1.5.19-4 → 1.5.24-2 ×2."));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onALaptopHomesMachinesCardKeepsItsLastRunInViewWhateverTheMachinesName() {
    String machine = unique("win7-lab-02-build-farm-long-hostname-in-rack-b");
    upload(run(unique("cygwin"), "1.5.24-2", machine, result("write-64b", 18, 18.3, 17.8)));
    open("/");
    browser.screenshot("home-machines-laptop", 1366);
    browser.screenshot("home-machines-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector("#machines thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were").containsExactly("Machine", "OS", "CPU", "Runs", "Last run");
    for (int width : List.of(1366, 1280, 390)) {
      Map<String, Object> card = cardAt("#machines", width);
      assertThat((Long) card.get("scrollWidth")).as("at " + width + " px the machines' card scrolls sideways: " + card)
          .isLessThanOrEqualTo((Long) card.get("clientWidth"));
    }
    // the long name's row: its name whole (wrapped, not cut) and its last run inside the card
    assertThat(browser.driver.findElement(By.linkText(machine)).getText().replaceAll("\\s+", "")).isEqualTo(machine);
    @SuppressWarnings("unchecked")
    Map<String, Object> lastRun = (Map<String, Object>) browser.driver.executeScript("""
        var name = arguments[0];
        var a = [...document.querySelectorAll('#machines tbody a')].find(function (a) { return a.textContent === name; });
        var t = a.closest('tr').querySelector('td.when time'), card = a.closest('.card').getBoundingClientRect();
        var r = t.getBoundingClientRect();
        return {text: t.innerText, right: Math.round(r.right), cardRight: Math.round(card.right)};""", machine);
    assertThat((String) lastRun.get("text")).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d");
    assertThat((Long) lastRun.get("right")).as("the last run inside its card: " + lastRun)
        .isLessThanOrEqualTo((Long) lastRun.get("cardRight"));
  }

  @Test
  void onAPhoneARegressionsEnvironmentsReadWholeEachValueNamedByItsRun() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    // a value longer than a phone is wide, with no space to break at
    String cflags = "-O2,-march=athlon64,-fomit-frame-pointer,-fno-strict-aliasing,-DCYGWIN_SIGNAL_DISPATCH_PENDING";
    StepFixtures.history(product, machine, "write-64b").stream().map(r -> new RunUpload(r.id(), r.product(),
            r.version(), r.machine(), r.suite(), r.batch(), r.startedAt(), r.finishedAt(),
            Map.of("compiler", "gcc 3.4.4", "cflags", cflags), r.results(), r.failures()))
        .forEach(this::upload);
    long regression = http().get("/api/v1/regressions?product=" + product).json().get(0).get("id").asLong();

    open("/regressions/" + regression);
    browser.screenshot("regression-environments-laptop", 1366);
    browser.screenshot("regression-environments-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector(".env-table thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were").containsExactly("What", "1.5.19-4 run", "1.5.24-2 run", "");
    for (int width : List.of(1366, 1280, 390)) {
      Map<String, Object> card = cardAt(".env-table", width);
      assertThat((Long) card.get("scrollWidth")).as("at " + width + " px the environments' card scrolls sideways: " + card)
          .isLessThanOrEqualTo((Long) card.get("clientWidth"));
    }
    List<String> rows = browser.shownOnPhoneScreen(".env-table tbody tr");
    assertThat(rows).as("each key with both runs' values, named by their versions, on the screen")
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
            .isEqualTo("machine: antivirus 1.5.19-4 NOD32 2.5 1.5.24-2 NOD32 2.7 differs"))
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
            .isEqualTo("CPU 1.5.19-4 AMD64 3200+ 1.5.24-2 AMD64 3200+"))
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", "")).as("the long value whole, wrapped")
            .isEqualTo("cflags1.5.19-4" + cflags + "1.5.24-2" + cflags));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onAPhoneTheRegressionsListReadsWholeEachRowStacked() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    StepFixtures.history(product, machine, "write-64b").forEach(this::upload);

    open("/regressions?product=" + product);
    browser.screenshot("regressions-list-laptop", 1366);
    browser.screenshot("regressions-list-phone", 390);
    assertThat(browser.driver.findElements(By.cssSelector("table.sortable thead th"))).extracting(e -> e.getText())
        .as("on a laptop, the columns as they were").containsExactly(
            "Detected", "Benchmark · metric", "Machine", "Versions", "Change", "p", "Status");
    for (int width : List.of(1366, 1280, 390)) {
      Map<String, Object> card = cardAt("table.sortable", width);
      assertThat((Long) card.get("scrollWidth")).as("at " + width + " px the regressions' card scrolls sideways: " + card)
          .isLessThanOrEqualTo((Long) card.get("clientWidth"));
    }
    assertThat(browser.shownOnPhoneScreen("table.sortable tbody tr")).as("each regression whole on the screen")
        .isNotEmpty()
        .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " ")).matches(
            "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d write-64b 2\\.\\d+× slower time-per-op · " + product
                + " 1\\.5\\.19-4 → 1\\.5\\.24-2 on " + machine + " p (< )?0\\.\\d+ open"));
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  @Test
  void onAPhoneARegressionsChartFitsItsCardOnceDrawn() {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    StepFixtures.history(product, machine, "write-64b").forEach(this::upload);
    long regression = http().get("/api/v1/regressions?product=" + product).json().get(0).get("id").asLong();

    open("/regressions/" + regression);
    new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, java.time.Duration.ofSeconds(20)).until(d ->
        Boolean.TRUE.equals(browser.driver.executeScript("""
            var c = document.querySelector('#chart canvas');
            return c != null && c.getBoundingClientRect().width > 600;""")));
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      // the chart draws itself again at the new width a moment after the resize: wait for a canvas that narrow
      new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, java.time.Duration.ofSeconds(20)).until(d ->
          Boolean.TRUE.equals(browser.driver.executeScript("""
              var c = document.querySelector('#chart canvas');
              return c != null && c.getBoundingClientRect().width > 0
                  && c.getBoundingClientRect().width <= document.documentElement.clientWidth;""")));
      Map<String, Object> card = cardAt("#chart", 390);
      assertThat((Long) card.get("scrollWidth")).as("the chart's card scrolls sideways: " + card)
          .isLessThanOrEqualTo((Long) card.get("clientWidth"));
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
    browser.screenshot("regression-chart-phone", 390);
  }

  /** At {@code width} px (844 high): the scroll and client widths of the card holding {@code inside}. */
  private static Map<String, Object> cardAt(String inside, int width) {
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(width, 844));
    try {
      new org.openqa.selenium.support.ui.WebDriverWait(browser.driver, java.time.Duration.ofSeconds(10)).until(d ->
          Boolean.TRUE.equals(browser.driver.executeScript(
              "return document.documentElement.clientWidth <= arguments[0]", width)));
      @SuppressWarnings("unchecked")
      Map<String, Object> card = (Map<String, Object>) browser.driver.executeScript("""
          var card = document.querySelector(arguments[0]).closest('.card');
          return {scrollWidth: card.scrollWidth, clientWidth: card.clientWidth};""", inside);
      return card;
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }

  /** At the window's size now: the height in pixels of each Other metrics cell of {@code table} that shows nothing. */
  private static List<Long> emptyOtherMetricsHeights(String table) {
    @SuppressWarnings("unchecked")
    List<Long> heights = (List<Long>) browser.driver.executeScript("""
        var out = [];
        document.querySelectorAll(arguments[0] + ' tbody td.others').forEach(function (td) {
          if (td.innerText.trim() === '') out.push(Math.round(td.getBoundingClientRect().height));
        });
        return out;""", table);
    return heights;
  }

  /** At the window's size now, the card holding {@code table} is not wider inside than it is: nothing scrolls sideways. */
  private static void assertCardFitsItsTable(String table) {
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> card = (java.util.Map<String, Object>) browser.driver.executeScript("""
        var card = document.querySelector(arguments[0]).closest('.card');
        return {scrollWidth: card.scrollWidth, clientWidth: card.clientWidth};""", table);
    assertThat((Long) card.get("scrollWidth")).as("the card of " + table + " scrolls sideways: " + card)
        .isLessThanOrEqualTo((Long) card.get("clientWidth"));
  }

  @Test
  void aChangeFromZeroReadsFromZeroNextToItsVerdict() {
    String product = unique("zeros");
    String machine = unique("xp");
    upload(run(product, "1.0", machine, result("faults", 0, 0, 0, 0, 0)));
    upload(run(product, "2.0", machine, result("faults", 3, 3, 4, 3, 2)));
    String pair = "?product=" + product + "&base=1.0&head=2.0&machine=" + machine;

    open("/compare" + pair);
    browser.screenshot("compare-from-zero-phone", 390);
    String row = browser.driver.findElement(By.cssSelector(".compare-table tbody tr")).getText();
    assertThat(row).as("on a laptop").contains("regression", "from 0").doesNotContain("∞", "Infinity", "?");
    List<String> shown = browser.shownOnPhoneScreen(".compare-table tbody th[scope=row]");
    assertThat(shown).as("on a phone, beside the benchmark").singleElement().asString()
        .contains("regression", "from 0").doesNotContain("∞", "Infinity");

    // over all machines (one row per metric) the verdicts and the change are under the benchmark too
    open("/compare?product=" + product + "&base=1.0&head=2.0");
    browser.screenshot("compare-all-machines-phone", 390);
    assertThat(browser.shownOnPhoneScreen(".compare-table tbody th[scope=row]")).as("over all machines, on a phone")
        .singleElement().asString().contains("1 regression", "from 0").doesNotContain("∞", "Infinity");

    // the JSON has no ratio (null) and the CSV an empty cell, with both values there to say it
    JsonNode compared = http().get("/api/v1/compare" + pair).json().get("rows").get(0);
    assertThat(compared.get("verdict").asString()).isEqualTo("regression");
    assertThat(compared.get("ratio").isNull()).isTrue();
    assertThat(compared.get("baseValue").asDouble()).isEqualTo(0);
    assertThat(http().get("/compare.csv" + pair).body()).contains(",1.0,2.0,0.00000,");
  }
}
