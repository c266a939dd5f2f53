package org.perftrack.server.summaries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.alerts.Senders;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Seed 003 on three machines: write() of 64 bytes 18 → 48 µs between 1.5.19-4 and 1.5.24-2, with the
 * context switches per call ×3000. One summary, three machines, the shared hint, one home row, and one
 * mail per recipient: no per-run mail for the three uploads, the summary's mail alone.
 */
class SummariesEndToEndTest extends IntegrationTest {

  @Autowired
  private ApplicationContext app;

  static GreenMail smtp;

  private String product;
  private String maintainer;
  private List<String> machines;
  private final List<JsonNode> answers = new ArrayList<>();

  @BeforeAll
  static void startSmtp() {
    smtp = new GreenMail(new ServerSetup(MAIL_PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
  }

  @AfterAll
  static void stopSmtp() {
    smtp.stop();
  }

  @BeforeEach
  void seed003OnThreeMachines() {
    product = unique("cygwin");
    machines = List.of(unique("xp-lab"), unique("w2k3-lab"), unique("xp-office"));
    maintainer = unique("maintainer") + "@example.org";
    assertThat(http().postJson("/api/v1/subscriptions", json(Map.of("email", maintainer, "product", product)),
        ADMIN_TOKEN).status()).isEqualTo(201);
    for (String machine : machines) {
      upload(Seed003.run(product, machine, "1.5.19-4", 18, 1));
      answers.add(upload(Seed003.run(product, machine, "1.5.24-2", 48, 3000)));
    }
  }

  @Test
  void threeMachinesMakeOneSummaryWithTheSharedHintOneMailAndOneHomeRow() {
    assertThat(answers.get(0).get("summaries").get(0).get("change").asString()).isEqualTo("opened");
    assertThat(answers.get(2).get("summaries").get(0).get("change").asString()).isEqualTo("grew");
    long id = answers.get(0).get("summaries").get(0).get("id").asLong();
    assertThat(answers.get(2).get("summaries").get(0).get("id").asLong()).isEqualTo(id);
    assertThat(answers.get(2).get("summaries").get(0).get("url").asString()).isEqualTo("/summaries/" + id);
    assertThat(answers.get(2).get("regressions").get(0).get("summaryId").asLong()).isEqualTo(id);

    JsonNode list = http().get("/api/v1/summaries?product=" + product).json();
    assertThat(list).hasSize(1);
    JsonNode s = list.get(0);
    assertThat(s.get("version").asString()).isEqualTo("1.5.24-2");
    assertThat(s.get("machinesAffected")).hasSize(3);
    assertThat(s.get("machinesMeasured")).hasSize(3);
    assertThat(s.get("worstRatio").asDouble()).isBetween(2.6, 2.7);
    assertThat(s.get("hints").get(0).get("text").asString()).startsWith("ctx-switches-per-op ×3000").endsWith("in 3 of 3");
    assertThat(s.get("corroboration").get(0).get("text").asString()).isEqualTo("on 3 of 3 machines");

    // the mail waits for the other machines' uploads (summary-settle); meanwhile no per-run mail went out
    Senders.drain(app); // a whole pass of the mail sender
    assertThat(mailsAbout(product)).isEmpty();
    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind = 'run' AND subject LIKE ?")
        .param("%" + product + "%").query(Long.class).single()).as("no per-run mail queued").isZero();
    // time passes:
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE kind = 'summary' AND dedup_key = ?")
        .param("summary-" + id).update();
    for (String recipient : List.of(ALERT_RECIPIENT, maintainer)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> mailsAbout(product, recipient).size() >= 1);
    }
    Senders.drain(app);
    assertThat(mailsAbout(product)).hasSize(2);
    for (String recipient : List.of(ALERT_RECIPIENT, maintainer)) {
      List<MimeMessage> mails = mailsAbout(product, recipient);
      assertThat(mails).as("exactly one message to " + recipient).hasSize(1);
      assertThat(subject(mails.get(0))).isEqualTo("[perftrack] " + product
          + " 1.5.24-2: 3 regressions on 3 of 3 machines, worst write-64b ×2.67 (unconfirmed: one build so far)");
    }
    MimeMessage mail = mailsAbout(product, maintainer).get(0);
    assertThat(body(mail)).contains("ctx-switches-per-op ×3000 (", "/summaries/" + id, "the worst change first").doesNotContain("3000.00");
    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind = 'summary' AND dedup_key LIKE ?")
        .param("summary-" + id + "%").query(Long.class).single()).as("one row per recipient, no follow-up").isEqualTo(
            jdbc.sql("SELECT count(DISTINCT recipient) FROM alert_outbox WHERE kind = 'summary' AND dedup_key = ?")
                .param("summary-" + id).query(Long.class).single());

    String home = http().page("/").body();
    assertThat(home.split("href=\"/summaries/" + id + "\"", -1)).as("one home row").hasSize(2);
    String page = http().page("/summaries/" + id).body();
    assertThat(page).contains("3 of 3 machines", "ctx-switches-per-op", "on 3 of 3 machines", "/compare?product=");
  }

  @Test
  void aSummaryThatGrowsAfterItsMailGetsOneFollowUpAndNeverAThirdMail() {
    long id = answers.get(0).get("summaries").get(0).get("id").asLong();
    sendDue(id);
    awaitMails(1, "3 regressions on 3 of 3 machines");

    String fourth = unique("w7-lab");
    upload(Seed003.run(product, fourth, "1.5.19-4", 18, 1));
    assertThat(upload(Seed003.run(product, fourth, "1.5.24-2", 48, 3000)).get("summaries").get(0).get("change")
        .asString()).isEqualTo("grew");
    sendDue(id);
    awaitMails(2, "4 regressions on 4 of 4 machines");

    String fifth = unique("w10-lab");
    upload(Seed003.run(product, fifth, "1.5.19-4", 18, 1));
    upload(Seed003.run(product, fifth, "1.5.24-2", 48, 3000));
    sendDue(id);
    Senders.drain(app);
    assertThat(mailsAbout(product)).hasSize(4);
    assertThat(mailsAbout(product, maintainer)).as("the first mail and one follow-up, no third").hasSize(2);
  }

  /** The settle time of the summary's pending mails is over. */
  private void sendDue(long summary) {
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE kind = 'summary' AND dedup_key LIKE ? "
        + "AND status = 'pending'").param("summary-" + summary + "%").update();
  }

  /** Both recipients have {@code count} mails about the product, the newest with this subject. */
  private void awaitMails(int count, String subject) {
    for (String recipient : List.of(ALERT_RECIPIENT, maintainer)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> mailsAbout(product, recipient).stream()
          .anyMatch(m -> subject(m).contains(subject)));
      Senders.drain(app); // a whole pass of the mail sender: nothing more was due
      assertThat(mailsAbout(product, recipient)).hasSize(count);
    }
  }

  @Test
  void compareAndTheRegressionListAgreeOnTheCountForTheSamePair() {
    JsonNode listed = http().get("/api/v1/regressions?product=" + product + "&version=1.5.24-2").json();
    String compare = http().page("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2").body();

    assertThat(listed).hasSize(3);
    assertThat(compare).contains(listed.size() + " regressions</span>");
    assertThat(http().page("/regressions?product=" + product + "&version=1.5.24-2&machine=" + machines.get(1)).body()
        .split("href=\"/regressions/", -1)).hasSize(2);
  }

  @Test
  void triageOfTheWholeSummaryWithAMemberOverride() {
    long id = answers.get(0).get("summaries").get(0).get("id").asLong();
    JsonNode before = http().get("/api/v1/summaries/" + id).json();
    long odd = before.get("members").get(1).get("id").asLong();

    String triage = json(Map.of("status", "acknowledged", "note", "signal thread",
        "members", Map.of(String.valueOf(odd), "invalid")));
    assertThat(http().patchJson("/api/v1/summaries/" + id, triage, TOKEN).status())
        .as("an upload token does not triage").isEqualTo(403);
    Http.Response r = http().patchJson("/api/v1/summaries/" + id, triage, ADMIN_TOKEN);

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("status").asString()).isEqualTo("acknowledged");
    assertThat(r.json().get("members")).extracting(m -> m.get("status").asString())
        .containsExactlyInAnyOrder("acknowledged", "invalid", "acknowledged");
    assertThat(http().get("/api/v1/regressions/" + odd).json().get("status").asString()).isEqualTo("invalid");
    assertThat(http().patchJson("/api/v1/summaries/" + id, "{\"status\":\"gone\"}", ADMIN_TOKEN).body()).contains("status");
    assertThat(http().patchJson("/api/v1/summaries/" + id, "{\"status\":\"fixed\",\"members\":{\"1\":\"fixed\"}}", ADMIN_TOKEN)
        .status()).isEqualTo(400);
    assertThat(http().get("/api/v1/summaries/999999999").status()).isEqualTo(404);
    assertThat(http().get("/api/v1/summaries?status=nope").status()).isEqualTo(400);
  }

  /** Every message that names the product, to anyone. */
  private static List<MimeMessage> mailsAbout(String product) {
    return Arrays.stream(smtp.getReceivedMessages()).filter(m -> subject(m).contains(product)).toList();
  }

  private static List<MimeMessage> mailsAbout(String product, String recipient) {
    return mailsAbout(product).stream().filter(m -> recipients(m).contains(recipient)).toList();
  }

  private static String recipients(MimeMessage m) {
    try {
      return Arrays.toString(m.getAllRecipients());
    } catch (jakarta.mail.MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The plain-text part. */
  private static String body(MimeMessage m) {
    try {
      return text(m);
    } catch (jakarta.mail.MessagingException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String text(jakarta.mail.Part p) throws jakarta.mail.MessagingException, java.io.IOException {
    if (p.isMimeType("text/plain")) {
      return (String) p.getContent();
    }
    if (p.isMimeType("multipart/*")) {
      jakarta.mail.Multipart parts = (jakarta.mail.Multipart) p.getContent();
      for (int i = 0; i < parts.getCount(); i++) {
        String found = text(parts.getBodyPart(i));
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static String subject(MimeMessage m) {
    try {
      return m.getSubject();
    } catch (jakarta.mail.MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonNode upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }
}
