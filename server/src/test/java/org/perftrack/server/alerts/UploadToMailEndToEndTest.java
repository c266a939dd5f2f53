package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The whole path with the real detector: seed 003 uploaded over HTTP (1.5.19-4, then 1.5.24-2 with
 * write() of 64 bytes 18 → 48 µs) opens a summary, and once its settle time is over (the wait for other
 * machines' uploads) exactly one complete mail is in the SMTP server within seconds; no per-run mail.
 */
class UploadToMailEndToEndTest extends IntegrationTest {

  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Autowired DigestService digests;
  @Autowired OutboxSender sender;

  @Test
  void uploadingTheWrite64bSlowdownMailsOneCompleteSummaryWithinSecondsOfItsSettleTime() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("maintainer") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", dev, "product", product));
    assertThat(upload(run(product, "1.5.19-4", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0)))
        .get("regressions")).isEmpty();

    RunUpload slow = run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1));
    long uploaded = System.nanoTime();
    JsonNode regressions = upload(slow).get("regressions");
    long answered = System.nanoTime();

    assertThat(regressions).as("the detector flags the step").hasSize(1);
    long id = regressions.get(0).get("id").asLong();
    long summary = regressions.get(0).get("summaryId").asLong();
    sender.drain(); // a whole pass of the sender: the summary's mail is not due before its settle time
    assertThat(mailbox.to(dev)).isEmpty();
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
        .update(); // the settle time is over
    long due = System.nanoTime();
    MimeMessage mail = mailbox.awaitMessages(dev, 1, Duration.ofSeconds(30)).get(0);
    long arrived = System.nanoTime();
    System.out.printf("ALERTS-E2E POST 1.5.24-2 took %.0f ms; summary mail due -> in GreenMail %.0f ms%n",
        (answered - uploaded) / 1e6, (arrived - due) / 1e6);
    assertThat(Mailbox.subject(mail)).isEqualTo("[perftrack] " + product
        + " 1.5.24-2: 1 regression on 1 of 1 machine, worst write-64b ×2.67 (unconfirmed: one build so far)");
    assertThat(Mailbox.part(mail, "text/plain")).contains(
        product + " 1.5.24-2: 1 regression on 1 of 1 machine",
        "* write-64b time-per-op on " + machine + ": 1.5.19-4 → 1.5.24-2", "×2.67",
        PUBLIC_URL + "/summaries/" + summary,
        PUBLIC_URL + "/regressions/" + id,
        PUBLIC_URL + "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op&machine=" + machine,
        PUBLIC_URL + "/compare?product=" + product + "&machine=" + machine + "&base=1.5.19-4&head=1.5.24-2",
        PUBLIC_URL + "/alerts/unsubscribe?token=");
    assertThat(Mailbox.part(mail, "text/html")).contains("<strong>write-64b</strong>", "×2.67");

    assertThat(http().postJson("/api/v1/runs", json(slow), TOKEN).status()).as("the same run again").isEqualTo(200);
    sender.drain(); // a whole pass of the sender after the re-send: nothing more to send
    assertThat(mailbox.to(dev)).hasSize(1);
    assertThat(mailbox.to(ALERT_RECIPIENT)).filteredOn(m -> Mailbox.subject(m).contains(product)).hasSize(1);
  }

  @Test
  void aStepSeenInOneBuildOnlyIsMailedAsUnconfirmedAndItsConfirmationMailsNothingMore() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("maintainer") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", dev, "product", product));
    upload(run(product, "1.5.19-4", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0)));
    JsonNode step = upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1)))
        .get("regressions").get(0);
    assertThat(step.get("confirmed").asBoolean()).as("one build so far").isFalse();
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?")
        .param("summary-" + step.get("summaryId").asLong()).update();
    MimeMessage mail = mailbox.awaitMessages(dev, 1, Duration.ofSeconds(30)).get(0);
    assertThat(Mailbox.subject(mail)).isEqualTo("[perftrack] " + product
        + " 1.5.24-2: 1 regression on 1 of 1 machine, worst write-64b ×2.67 (unconfirmed: one build so far)");
    assertThat(Mailbox.part(mail, "text/plain")).contains("1.5.19-4 → 1.5.24-2, unconfirmed: one build so far");
    assertThat(Mailbox.part(mail, "text/html")).contains("unconfirmed: one build so far");

    JsonNode later = upload(run(product, "1.5.25-1", machine, result("write-64b", 48.1, 48.3, 47.8, 48.0, 48.2)));
    assertThat(later.toString()).as("the next build confirms the step").contains("\"confirmed\":true");
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE recipient = ? AND sent_at IS NULL").param(dev)
        .update();
    sender.drain();
    assertThat(mailbox.to(dev)).as("the confirmation mails nothing more").hasSize(1);
  }

  @Test
  void theDigestDropsARegressionOnceItIsTriagedAsFixed() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String lead = unique("lead") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", lead, "product", product, "mode", "digest"));
    upload(run(product, "1.5.19-4", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0)));
    long id = upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1)))
        .get("regressions").get(0).get("id").asLong();
    LocalDate day = LocalDate.of(2200, 1, 1).plusDays(Math.abs(product.hashCode() % 30000));
    String subject = "[perftrack] daily digest " + day + ": 1 open regression";

    assertThat(http().patchJson("/api/v1/regressions/" + id, "{\"status\":\"fixed\",\"note\":\"reverted\"}", ADMIN_TOKEN)
        .status()).isEqualTo(200);
    digests.make(day);
    digests.make(day.plusDays(1));

    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind <> 'summary' AND recipient = ?").param(lead).query(Long.class).single())
        .as("nothing open for this subscription: no digest").isZero();
    assertThat(mailbox.to(lead)).extracting(Mailbox::subject).doesNotContain(subject);
  }

  private JsonNode upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }
}
