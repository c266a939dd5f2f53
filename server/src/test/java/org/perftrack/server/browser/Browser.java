package org.perftrack.server.browser;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * Debian's headless Chromium driven through its own chromedriver (never a downloaded browser:
 * Selenium Manager is bypassed by naming both binaries). Screenshots go to target/screenshots.
 */
final class Browser implements AutoCloseable {

  static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";

  final ChromeDriver driver;
  private final Path profile;

  private static Browser shared;

  /** The run's one Chromium, started on first use and quit when the JVM ends. */
  static synchronized Browser shared() throws IOException {
    if (shared == null) {
      Browser started = new Browser();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          started.close();
        } catch (IOException | RuntimeException e) {
          // the JVM is ending: a profile folder left in /tmp is all that can remain
        }
      }, "perftrack-chromium-quit"));
      shared = started;
    }
    return shared;
  }

  /** As a new browser: no page, no cookies (so signed out), a laptop's window, no console messages kept. */
  void forget() {
    driver.get("about:blank");
    driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
    driver.manage().window().setSize(new Dimension(1366, 900));
    driver.manage().logs().get(LogType.BROWSER).getAll();
  }

  Browser() throws IOException {
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
    profile = Files.createTempDirectory("perftrack-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile, "--window-size=1366,900");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
  }

  /**
   * Opens a page and waits until it is the document shown and loaded. On a loaded machine {@code get} once
   * returned while the page before was still the one in the window (an element of the new page, in its source a
   * moment later, was not found): the old document is marked first, and the wait ends when the mark is gone.
   */
  void open(String url) {
    JavascriptExecutor js = (JavascriptExecutor) driver;
    js.executeScript("window.__perftrackPageBefore = true");
    driver.get(url);
    new org.openqa.selenium.support.ui.WebDriverWait(driver, Duration.ofSeconds(20)).until(d ->
        Boolean.TRUE.equals(js.executeScript("return window.__perftrackPageBefore === undefined"
            + " && document.readyState === 'complete'")));
  }

  /** Console messages at SEVERE since the last call (JavaScript errors, failed resources). */
  List<String> severeConsoleMessages() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage).toList();
  }

  /** A screenshot of the whole page at the given width (laptop 1366, phone 390). */
  void screenshot(String name, int width) {
    WebDriver.Window window = driver.manage().window();
    window.setSize(new Dimension(width, 900));
    long height = (Long) ((JavascriptExecutor) driver).executeScript(
        "return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)");
    window.setSize(new Dimension(width, (int) Math.min(Math.max(height + 100, 600), 5000)));
    // the chart redraws 100 ms after a resize; a screenshot is a picture, not an assertion, so a pause is enough
    pause(400);
    try {
      Files.createDirectories(SCREENSHOTS);
      Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOTS.resolve(name + ".png"),
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      window.setSize(new Dimension(1366, 900));
    }
  }

  /**
   * At a phone's size (390 × 844): how far the page is wider than the screen, and the elements
   * that reach past its right edge outside a scroll box (empty when nothing overflows).
   */
  List<String> overflowAtPhoneSize() {
    driver.manage().window().setSize(new Dimension(390, 844));
    pause(300);
    try {
      @SuppressWarnings("unchecked")
      List<String> out = (List<String>) ((JavascriptExecutor) driver).executeScript("""
          var w = document.documentElement.clientWidth, out = [];
          if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth + 'px');
          document.querySelectorAll('body *').forEach(function (e) {
            var r = e.getBoundingClientRect();
            if (r.width === 0 || r.right <= w + 1) return;
            for (var p = e.parentElement; p; p = p.parentElement) {
              var o = getComputedStyle(p).overflowX;
              if (o === 'auto' || o === 'scroll' || o === 'hidden') return;
            }
            out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className + ' right=' + Math.round(r.right));
          });
          return out;""");
      return out;
    } finally {
      driver.manage().window().setSize(new Dimension(1366, 900));
    }
  }

  /**
   * At the given width: each shown button, menu and field (folded parts opened first) that reaches past the right
   * edge of the box it scrolls in (a card, a table's scroll box), so that a person sees it cut off or not at all
   * until they scroll the card sideways; as its text or its label's text. Empty when each is whole in its box.
   */
  List<String> controlsCutOffAt(int width) {
    driver.manage().window().setSize(new Dimension(width, 900));
    pause(300);
    try {
      @SuppressWarnings("unchecked")
      List<String> out = (List<String>) ((JavascriptExecutor) driver).executeScript("""
          document.querySelectorAll('details').forEach(function (d) { d.open = true; });
          var out = [];
          document.querySelectorAll('button, select, input, textarea').forEach(function (c) {
            if (c.type === 'hidden' || c.getClientRects().length === 0) return;
            var r = c.getBoundingClientRect();
            for (var p = c.parentElement; p; p = p.parentElement) {
              var o = getComputedStyle(p).overflowX;
              if (o !== 'auto' && o !== 'scroll' && o !== 'hidden') continue;
              var edge = p.getBoundingClientRect().left + p.clientLeft + p.clientWidth;
              if (r.right > edge + 1) {
                var name = c.tagName === 'BUTTON' ? c.innerText.trim()
                    : (c.labels && c.labels.length ? c.labels[0].innerText.trim() : c.name);
                out.push(c.tagName.toLowerCase() + ' ' + name + ' right=' + Math.round(r.right) + ' edge=' + Math.round(edge));
              }
              break;
            }
          });
          return out;""");
      return out;
    } finally {
      driver.manage().window().setSize(new Dimension(1366, 900));
    }
  }

  /**
   * At a phone's size (390 × 844): each shown occurrence of one of {@code names} (versions, machine names) that the
   * page breaks over more than one line ("1.5.19-" above "4"), with the tag and class of the element it is in, and
   * how many of them were found in all (the first line): empty but for that count when each reads on one line.
   */
  List<String> namesBrokenAtPhoneSize(List<String> names) {
    driver.manage().window().setSize(new Dimension(390, 844));
    pause(300);
    try {
      @SuppressWarnings("unchecked")
      List<String> out = (List<String>) ((JavascriptExecutor) driver).executeScript("""
          var names = arguments[0], broken = [], found = 0;
          var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (var t = walk.nextNode(); t; t = walk.nextNode()) {
            names.forEach(function (name) {
              for (var at = t.data.indexOf(name); at >= 0; at = t.data.indexOf(name, at + 1)) {
                var r = document.createRange();
                r.setStart(t, at);
                r.setEnd(t, at + name.length);
                var lines = Array.prototype.filter.call(r.getClientRects(), function (x) { return x.width > 0; });
                if (lines.length === 0) continue;
                found++;
                if (lines.length > 1) broken.push(name + ' in ' + t.parentElement.tagName.toLowerCase() + '.'
                    + t.parentElement.className);
              }
            });
          }
          return ['found ' + found].concat(broken);""", names);
      return out;
    } finally {
      driver.manage().window().setSize(new Dimension(1366, 900));
    }
  }

  /** At a phone's size (390 × 844): the text of the elements matching {@code css} that are shown and lie on the screen. */
  List<String> shownOnPhoneScreen(String css) {
    driver.manage().window().setSize(new Dimension(390, 844));
    pause(300);
    try {
      @SuppressWarnings("unchecked")
      List<String> out = (List<String>) ((JavascriptExecutor) driver).executeScript("""
          var w = document.documentElement.clientWidth, out = [];
          document.querySelectorAll(arguments[0]).forEach(function (e) {
            var r = e.getBoundingClientRect();
            if (r.width > 0 && r.left >= 0 && r.right <= w) out.push(e.innerText.trim());
          });
          return out;""", css);
      return out;
    } finally {
      driver.manage().window().setSize(new Dimension(1366, 900));
    }
  }

  /**
   * Every control of the page (button, radio button, checkbox, select and each of its options, text field,
   * textarea) that shows no name a person can read, as a person sees it: the rendered text of the button or of
   * the control's label (or of the element its aria-labelledby names), a text field's placeholder. An aria-label
   * alone does not count: nobody sees it. Folded parts ({@code <details>}) are opened first, as a person would;
   * a control that is still not shown is left out. Empty when each one has a name.
   */
  List<String> controlsWithoutVisibleName() {
    @SuppressWarnings("unchecked")
    List<String> out = (List<String>) ((JavascriptExecutor) driver).executeScript("""
        document.querySelectorAll('details').forEach(function (d) { d.open = true; });
        function shown(e) { return e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; }
        function text(e) { return shown(e) ? (e.innerText || '').trim() : ''; }
        function labelOf(c) {
          var t = '';
          if (c.labels) for (var i = 0; i < c.labels.length; i++) t += text(c.labels[i]);
          var by = c.getAttribute('aria-labelledby');
          if (by) by.split(' ').forEach(function (id) { t += text(document.getElementById(id)); });
          return t.trim();
        }
        function describe(c) {
          return c.tagName.toLowerCase() + (c.type ? '[type=' + c.type + ']' : '') + (c.name ? '[name=' + c.name + ']' : '')
              + (c.value && c.tagName !== 'TEXTAREA' ? '[value=' + c.value + ']' : '') + (c.id ? '#' + c.id : '');
        }
        var out = [];
        document.querySelectorAll('input, select, textarea, button').forEach(function (c) {
          if (c.type === 'hidden' || !shown(c)) return;
          var name;
          if (c.tagName === 'BUTTON') name = text(c) || labelOf(c);
          else if (c.type === 'submit' || c.type === 'button' || c.type === 'reset') name = (c.value || '').trim();
          else if (c.type === 'image') name = (c.alt || '').trim();
          else name = labelOf(c) || ((c.tagName === 'TEXTAREA' || c.tagName === 'INPUT') ? (c.placeholder || '').trim() : '');
          if (!name) out.push(describe(c));
          if (c.tagName === 'SELECT') for (var i = 0; i < c.options.length; i++) {
            if (!(c.options[i].text || '').trim()) out.push(describe(c) + ' option[value=' + c.options[i].value + ']');
          }
        });
        return out;""");
    return out;
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
  }
}
