package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.perftrack.server.alerts.Mailbox;

/**
 * A regression's mail as a phone shows it (390 px): each regression a block of short lines, read whole without
 * scrolling sideways, not a table of eight columns.
 */
class MailOnAPhoneInBrowserTest extends BrowserTest {

  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Test
  void onAPhoneTheMailOfARegressionReadsWholeWithoutScrollingSideways() throws IOException {
    String product = unique("cygwin");
    String machine = unique("win7-lab-02-long-hostname");
    String dev = unique("maintainer") + "@example.org";
    assertThat(http().postJson("/api/v1/subscriptions", org.perftrack.server.support.Fixtures.json(
        Map.of("email", dev, "product", product)), ADMIN_TOKEN).status()).isEqualTo(201);
    upload(run(product, "1.5.19-4", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0)));
    long summary = upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1)))
        .get("regressions").get(0).get("summaryId").asLong();
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
        .update();
    MimeMessage mail = mailbox.awaitMessages(dev, 1, Duration.ofSeconds(30)).get(0);
    Path html = Path.of("target", "mail-on-a-phone.html").toAbsolutePath();
    Files.writeString(html, Mailbox.part(mail, "text/html"));

    browser.open(html.toUri().toString());
    browser.screenshot("mail-phone", 390);
    assertThat(browser.driver.findElements(By.tagName("table"))).as("no table of columns").isEmpty();
    assertThat(browser.overflowAtPhoneSize()).as("nothing reaches past a phone's screen").isEmpty();
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertThat(browser.driver.findElement(By.tagName("body")).getText().replaceAll("\\s+", " ")).contains(
          "write-64b time-per-op on " + machine, "×2.67 (+167%) · 18.03 us → 48.1 us · p < 0.001",
          "1.5.19-4 → 1.5.24-2", "unconfirmed: one build so far", "regression · series · compare");
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }
}
