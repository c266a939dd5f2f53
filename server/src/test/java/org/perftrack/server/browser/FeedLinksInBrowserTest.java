package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.support.Http;
import org.perftrack.wire.RunUpload;

/**
 * The regression list and the home page name their Atom feed twice: in the head, for a browser or a feed reader
 * that discovers feeds, and as a visible "Atom feed" link; the list's feed follows its product and machine filter,
 * and the address each gives is a feed a real parser (ROME) reads. Laptop and phone.
 */
class FeedLinksInBrowserTest extends BrowserTest {

  @Test
  void theRegressionListAndTheHomePageLinkTheirFeedScopedToTheFilterShown() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      upload(run);
    }

    open("/regressions?product=" + product + "&machine=" + machine);
    String head = discovered();
    assertThat(head).isEqualTo("/feeds/regressions.atom?product=" + product + "&machine=" + machine);
    assertThat(browser.driver.findElement(By.cssSelector(".feed-link")).getText())
        .isEqualTo("Atom feed of every regression of " + product + " on " + machine
            + ": each step found, placed or withdrawn");
    assertThat(browser.driver.findElement(By.linkText("Atom feed")).getAttribute("href")).endsWith(head);
    SyndFeed feed = feed(head);
    assertThat(feed.getTitle()).isEqualTo("perftrack: regressions of " + product + " on " + machine);
    assertThat(feed.getEntries()).isNotEmpty().extracting(SyndEntry::getTitle)
        .allMatch(t -> t.startsWith(product + " ") && t.contains(" on " + machine + " "));
    browser.screenshot("feed-link-regressions-laptop", 1366);
    browser.screenshot("feed-link-regressions-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();

    open("/regressions");
    assertThat(discovered()).isEqualTo("/feeds/regressions.atom");
    assertThat(browser.driver.findElement(By.cssSelector(".feed-link")).getText()).startsWith("Atom feed of every regression:");

    open("/");
    assertThat(discovered()).isEqualTo("/feeds/summaries.atom");
    assertThat(browser.driver.findElement(By.cssSelector("#open-summaries .feed-link")).getText())
        .isEqualTo("Atom feed of the summaries: each one opened, grown, placed or withdrawn");
    assertThat(feed("/feeds/summaries.atom").getEntries()).extracting(SyndEntry::getTitle)
        .anyMatch(t -> t.startsWith(product + " 1.5.24-2: opened"));
    browser.screenshot("feed-link-home-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat(http().get("/feeds/nothing.atom").status()).isEqualTo(404);
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  /** The address of the feed the open page's head names (as a browser discovers it). */
  private static String discovered() {
    return browser.driver.findElement(By.cssSelector("link[rel=alternate][type='application/atom+xml']"))
        .getDomAttribute("href");
  }

  private SyndFeed feed(String path) throws Exception {
    Http.Response r = http().get(path);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return new SyndFeedInput().build(new StringReader(r.body()));
  }
}
