package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * A page test in the run's one Chromium (starting one takes seconds), which each class gets signed out, at a
 * laptop's size and with no console messages left from the class before: open a page, upload runs, sign in as the
 * admin.
 */
abstract class BrowserTest extends IntegrationTest {

  static Browser browser;

  @BeforeAll
  static void freshBrowser() throws IOException {
    browser = Browser.shared();
    browser.forget();
  }

  void open(String path) {
    browser.open("http://localhost:" + port + path);
  }

  JsonNode upload(RunUpload r) {
    var response = http().postJson("/api/v1/runs", json(r), TOKEN);
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json();
  }

  void signIn() {
    open("/login");
    browser.driver.findElement(By.id("username")).sendKeys("admin");
    browser.driver.findElement(By.id("password")).sendKeys(ADMIN_PASSWORD);
    browser.driver.findElement(By.cssSelector("form button[type=submit]")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(ExpectedConditions.not(ExpectedConditions.urlContains("/login")));
  }

  /**
   * Waits until the element {@code where} shows {@code text}. While a form's answer replaces the page, the element
   * found on the old page can vanish between finding it and reading it (Chromium says "Node with given id does not
   * belong to the document", not always as a stale element): such a read is tried again.
   */
  static void awaitText(By where, String text) {
    new WebDriverWait(browser.driver, Duration.ofSeconds(20))
        .ignoring(org.openqa.selenium.WebDriverException.class)
        .until(ExpectedConditions.textToBePresentInElementLocated(where, text));
  }

  /**
   * On a phone the open page shows at least {@code atLeast} of {@code names} (versions, machine names), each on one
   * line, and nothing reaches past the screen outside a scroll box.
   */
  static void assertNamesReadWholeOnAPhone(List<String> names, int atLeast) {
    List<String> found = browser.namesBrokenAtPhoneSize(names);
    assertThat(Integer.parseInt(found.get(0).substring("found ".length()))).as("names shown").isGreaterThanOrEqualTo(atLeast);
    assertThat(found.subList(1, found.size())).as("names broken over two lines").isEmpty();
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
  }

  /**
   * Each date and time the page shows ("2026-12-02 18:02", "2026-12-02 18:02:44"; at least {@code atLeast} of them)
   * reads on one line on a phone, not "2026-" over "12-02" or the date over its time.
   */
  static void assertDatesReadWholeOnAPhone(int atLeast) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d(:\\d\\d)?")
        .matcher(browser.driver.findElement(By.tagName("body")).getText());
    java.util.Set<String> dates = new java.util.LinkedHashSet<>();
    while (m.find()) {
      dates.add(m.group());
    }
    assertThat(dates).as("dates shown").isNotEmpty();
    assertNamesReadWholeOnAPhone(List.copyOf(dates), atLeast);
  }

  /**
   * The labels of the open page's toolbars ({@code form.toolbar}) that leave the line of their control, with the
   * window {@code width} wide, at the bar's width and at every narrower width of the bar down to 480 px: "What to
   * compare: Head at 1164px" when the label ends a line whose next line starts with its control. Where a bar wraps
   * depends on the names in its menus, so every width is tried. The first item counts the labels read ("read 6").
   */
  static List<String> toolbarLabelsAwayFromTheirControls(int width) {
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(width, 900));
    try {
      @SuppressWarnings("unchecked")
      List<String> out = (List<String>) browser.driver.executeScript("""
          var out = [], read = 0;
          document.querySelectorAll('form.toolbar').forEach(function (form) {
            var name = form.getAttribute('aria-label') || form.getAttribute('action');
            var labels = Array.prototype.filter.call(form.querySelectorAll('label[for]'), function (label) {
              return document.getElementById(label.htmlFor) && label.getBoundingClientRect().width > 0;
            });
            read += labels.length;
            for (var w = form.getBoundingClientRect().width; w >= 480; w -= 4) {
              form.style.width = w + 'px';
              labels.forEach(function (label) {
                var l = label.getBoundingClientRect(), c = document.getElementById(label.htmlFor).getBoundingClientRect();
                var middle = l.top + l.height / 2;
                if (middle < c.top || middle > c.bottom || l.right > c.left) {
                  out.push(name + ': ' + label.textContent.trim() + ' at ' + Math.round(w) + 'px');
                }
              });
            }
            form.style.width = '';
          });
          return ['read ' + read].concat(out);""");
      return out;
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }

  /** The run as measured in one interleaved session {@code batch}. */
  static RunUpload batched(RunUpload r, String batch) {
    return new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }
}
