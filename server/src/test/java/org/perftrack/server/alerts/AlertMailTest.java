package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;
import static org.awaitility.Awaitility.await;

import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/** What a regression mail says and who gets it, through real SMTP (GreenMail) and PostgreSQL. */
class AlertMailTest extends IntegrationTest {

  static final Duration WITHIN = Duration.ofSeconds(10);
  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Autowired AlertService alerts;
  @Autowired TransactionTemplate tx;

  @Test
  void aRegressionReportedBetweenSuspectVersionsSaysWhichVersionsItMayStartAt() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("dev") + "@example.org";
    subscribe(Map.of("email", dev, "product", product));
    Regression ranged = RegressionValues.between(RegressionValues.slower(product, machine, "write-64b", "1.5.20-1",
        "1.5.21-1", 18.0, 19.8), "1.5.20-1", "1.5.22-1");
    Regression exact = RegressionValues.slower(product, machine, "fork", "1.5.20-1", "1.5.21-1", 70, 140);

    queue(UUID.randomUUID(), List.of(ranged, exact));

    MimeMessage mail = mailbox.awaitMessages(dev, 1, WITHIN).get(0);
    assertThat(Mailbox.part(mail, "text/plain"))
        .contains("* write-64b time-per-op: 1.5.20-1 → 1.5.21-1, starts between 1.5.20-1 and 1.5.22-1 (most likely"
            + " 1.5.21-1)")
        .contains("* fork time-per-op: 1.5.20-1 → 1.5.21-1")
        .doesNotContain("fork time-per-op: 1.5.20-1 → 1.5.21-1, starts");
    assertThat(Mailbox.part(mail, "text/html")).contains("between 1.5.20-1 and 1.5.22-1 (most likely 1.5.21-1)");
  }

  @Test
  void oneMailPerRunWithSubjectBothBodiesTheHintAndLinksToConfiguredAndSubscribedAddresses() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("dev") + "@example.org";
    // the hint is detection's, carried by the regression (write64b has context switches ×400)
    subscribe(Map.of("email", dev, "product", product));
    Regression write = RegressionValues.write64b(product, machine);
    List<Regression> three = List.of(
        RegressionValues.slower(product, machine, "read-64b", "1.5.19-4", "1.5.24-2", 18.0, 30.0), write,
        RegressionValues.slower(product, machine, "sigprocmask", "1.5.19-4", "1.5.24-2", 500, 610));
    UUID runId = UUID.randomUUID();

    assertThat(queue(runId, three)).as("dev and the configured team").isEqualTo(2);

    String subject = "[perftrack] " + product + " 1.5.24-2 on " + machine + ": 3 regressions (write-64b ×2.67)";
    MimeMessage mail = mailbox.awaitMessages(dev, 1, WITHIN).get(0);
    assertThat(Mailbox.subject(mail)).isEqualTo(subject);
    assertThat(Mailbox.header(mail, "From")).contains("perftrack@localhost");
    assertThat(mailbox.awaitSubject(ALERT_RECIPIENT, subject, WITHIN)).as("the configured recipient gets it too")
        .hasSize(1);

    String token = jdbc.sql("SELECT unsubscribe_token FROM alert_subscription WHERE email = ?").param(dev)
        .query(String.class).single();
    String series = PUBLIC_URL + "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op&machine="
        + machine;
    String compare = PUBLIC_URL + "/compare?product=" + product + "&machine=" + machine + "&base=1.5.19-4&head=1.5.24-2";
    String unsubscribe = PUBLIC_URL + "/alerts/unsubscribe?token=" + token;

    String text = Mailbox.part(mail, "text/plain");
    assertThat(text).contains("3 regressions in " + product + " 1.5.24-2 on " + machine)
        .contains("* write-64b time-per-op: 1.5.19-4 → 1.5.24-2", "18 us → 48 us  ×2.67 (+167%), p < 0.001")
        .contains("hint: ctx-switches-per-op ×400 (0.004 count → 1.6 count)")
        .contains("regression: " + PUBLIC_URL + "/regressions/" + write.id())
        .contains("series:     " + series, "compare:    " + compare, "Unsubscribe: " + unsubscribe)
        .contains("read-64b", "×1.67", "sigprocmask", "×1.22");
    String html = Mailbox.part(mail, "text/html");
    assertThat(html).doesNotContain("<table").contains("<strong>write-64b</strong>", "1.5.19-4 → 1.5.24-2", "×2.67",
        "ctx-switches-per-op ×400", "href=\"" + PUBLIC_URL + "/regressions/" + write.id() + "\"",
        "href=\"" + series.replace("&", "&amp;") + "\"", "href=\"" + compare.replace("&", "&amp;") + "\"",
        "href=\"" + unsubscribe + "\"");
    assertThat(Mailbox.header(mail, "List-Unsubscribe")).isEqualTo("<" + unsubscribe + ">");
    assertThat(Mailbox.header(mail, "Message-ID")).isEqualTo(jdbc.sql(
        "SELECT message_id FROM alert_outbox WHERE kind <> 'summary' AND recipient = ?").param(dev).query(String.class).single());
  }

  @Test
  void filteredSubscriptionsGetNothingAndTheMatchingOneGetsOnlyWhatItFollows() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String matching = unique("match") + "@example.org";
    String otherBenchmark = unique("forks") + "@example.org";
    String tooSmall = unique("big-only") + "@example.org";
    String otherMachine = unique("linux") + "@example.org";
    String digestOnly = unique("digest") + "@example.org";
    subscribe(Map.of("email", matching, "product", product, "machine", "XP-LAB-*", "minChangePercent", 50));
    subscribe(Map.of("email", otherBenchmark, "product", product, "benchmark", "fork*"));
    subscribe(Map.of("email", tooSmall, "product", product, "minChangePercent", 200));
    subscribe(Map.of("email", otherMachine, "product", product, "machine", "linux-?"));
    subscribe(Map.of("email", digestOnly, "product", product, "mode", "digest"));
    var small = RegressionValues.slower(product, machine, "sigprocmask", "1.5.19-4", "1.5.24-2", 500, 610);

    queue(UUID.randomUUID(), List.of(RegressionValues.write64b(product, machine), small));

    assertThat(jdbc.sql("SELECT recipient FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ?").param("%" + product + "%")
        .query(String.class).list()).containsExactlyInAnyOrder(matching, ALERT_RECIPIENT);
    MimeMessage mail = mailbox.awaitMessages(matching, 1, WITHIN).get(0);
    assertThat(Mailbox.subject(mail)).endsWith(": 1 regression (write-64b ×2.67)");
    assertThat(Mailbox.part(mail, "text/plain")).contains("write-64b").doesNotContain("sigprocmask");
    for (String nobody : List.of(otherBenchmark, tooSmall, otherMachine, digestOnly)) {
      assertThat(mailbox.to(nobody)).as(nobody).isEmpty();
    }
  }

  @Test
  void aResentRunOrAReattributedRegressionRaisesNoSecondAlarm() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    UUID run = UUID.randomUUID();
    var first = RegressionValues.write64b(product, machine);
    var reattributed = RegressionValues.slower(product, machine, "write-64b", "1.5.21-1", "1.5.24-2", 20.0, 48.0);
    var otherStep = RegressionValues.slower(product, machine, "fork", "1.5.19-4", "1.5.24-2", 75000, 90000);

    assertThat(queue(run, List.of(first))).isEqualTo(1);
    assertThat(queue(run, List.of(first))).as("re-sent").isZero();
    assertThat(queue(UUID.randomUUID(), List.of(reattributed)))
        .as("the same step, re-attributed after a backfill").isZero();
    assertThat(queue(UUID.randomUUID(), List.of(reattributed, otherStep)))
        .as("a new step in another series").isEqualTo(1);
    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ?").param("%" + product + "%")
        .query(Long.class).single()).isEqualTo(2);
  }

  @Test
  void theUnsubscribeLinkAsksFirstThenStopsFurtherMail() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("leaving") + "@example.org";
    subscribe(Map.of("email", dev, "product", product));
    queue(UUID.randomUUID(), List.of(RegressionValues.write64b(product, machine)));
    String link = Mailbox.header(mailbox.awaitMessages(dev, 1, WITHIN).get(0), "List-Unsubscribe");
    String path = link.substring(link.indexOf("/alerts/"), link.length() - 1);

    assertThat(http().get(path).body()).as("GET only asks").contains(dev, "<button");
    assertThat(countTo(dev)).isEqualTo(1);
    assertThat(http().postBytes(path, new byte[0], "application/x-www-form-urlencoded", null).body())
        .contains(dev + "</span> gets no more mail");
    queue(UUID.randomUUID(),
        List.of(RegressionValues.slower(product, machine, "fork", "1.5.19-4", "1.5.24-2", 75, 90)));
    assertThat(countTo(dev)).as("no second mail after unsubscribing").isEqualTo(1);
    assertThat(http().get("/alerts/unsubscribe?token=nonsense").body()).contains("not valid");
  }

  @Test
  void aMailLeavesWithinASecondOfTheCommitThatQueuedIt() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("latency") + "@example.org";
    subscribe(Map.of("email", dev, "product", product));
    List<Double> ms = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      var r = RegressionValues.slower(product, machine, "write-64b", "3.0." + i, "3.0." + (i + 1), 18.0, 48.0);
      queue(UUID.randomUUID(), List.of(r));
      long committed = System.nanoTime();
      mailbox.awaitMessages(dev, i + 1, WITHIN);
      ms.add((System.nanoTime() - committed) / 1e6);
    }
    List<Double> sorted = ms.stream().sorted().toList();
    String sql = "SELECT extract(epoch FROM sent_at - created_at) * 1000 FROM alert_outbox WHERE kind <> 'summary' AND recipient = ?"
        + " AND status = 'sent' ORDER BY 1";
    await().atMost(WITHIN).until(() -> jdbc.sql(sql).param(dev).query(Double.class).list().size() == 20);
    List<Double> db = jdbc.sql(sql).param(dev).query(Double.class).list();
    System.out.printf("ALERTS-LATENCY commit->GreenMail n=%d min=%.0fms p50=%.0fms p95=%.0fms max=%.0fms;"
            + " queued (insert)->SMTP accepted (database clock) p50=%.0fms max=%.0fms%n", sorted.size(), sorted.get(0),
        sorted.get(sorted.size() / 2), sorted.get(18), sorted.get(sorted.size() - 1), db.get(db.size() / 2),
        db.get(db.size() - 1));
    assertThat(sorted.get(sorted.size() / 2)).as("median ms; the poll interval is 100 ms, a commit wakes the sender")
        .isLessThan(1000.0);
  }

  @Autowired DigestService digests;

  @Test
  void theDailyDigestListsWhatIsStillOpenOncePerDay() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String lead = unique("lead") + "@example.org";
    subscribe(Map.of("email", lead, "product", product, "mode", "digest"));
    queue(UUID.randomUUID(), List.of(RegressionValues.write64b(product, machine)));
    queue(UUID.randomUUID(),
        List.of(RegressionValues.slower(product, machine, "fork", "1.7.5", "1.7.7", 70, 140)));
    assertThat(countTo(lead)).as("digest mode: nothing per upload").isZero();
    var day = java.time.LocalDate.of(2100, 1, 1).plusDays(Math.abs(product.hashCode() % 30000));

    assertThat(digests.make(day)).isPositive();
    assertThat(digests.make(day)).as("one digest a day, whoever asks").isZero();

    MimeMessage digest = mailbox.awaitMessages(lead, 1, WITHIN).get(0);
    assertThat(Mailbox.subject(digest)).isEqualTo("[perftrack] daily digest " + day + ": 2 open regressions");
    assertThat(Mailbox.part(digest, "text/plain")).contains("2 open regressions you follow",
        "write-64b time-per-op on " + machine + ": 1.5.19-4 → 1.5.24-2", "fork time-per-op on " + machine);
    assertThat(Mailbox.part(digest, "text/html")).contains("<strong>fork</strong>", "1.7.5 → 1.7.7", "×2");
  }

  @Test
  void stepsRaisedBySeriesJudgedAgainWithoutARunAreMailedAndNameNoRun() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    String dev = unique("dev") + "@example.org";
    subscribe(Map.of("email", dev, "product", product));
    Regression fork = RegressionValues.slower(product, machine, "fork", "1.7.5", "1.7.7", 70, 140);

    assertThat(queue(null, List.of(fork))).as("dev and the configured team").isEqualTo(2);

    assertThat(Mailbox.subject(mailbox.awaitMessages(dev, 1, WITHIN).get(0))).contains(product, "fork");
    assertThat(jdbc.sql("SELECT run_id IS NULL FROM alert_regression WHERE regression_id = ?").param(fork.id())
        .query(Boolean.class).single()).as("no made-up run id").isTrue();
    assertThat(jdbc.sql("SELECT DISTINCT dedup_key FROM alert_outbox WHERE kind = 'run' AND recipient = ?")
        .param(dev).query(String.class).list()).containsExactly("judged." + fork.id());
  }

  /** As ingest calls it: inside a transaction, the mails queued commit with it. */
  int queue(UUID run, List<Regression> regressions) {
    Integer n = tx.execute(s -> alerts.onRegressionsCreated(run, regressions));
    return n == null ? 0 : n;
  }

  private long countTo(String address) {
    return jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind <> 'summary' AND recipient = ?").param(address).query(Long.class).single();
  }

  void subscribe(Map<String, Object> body) {
    new Subscriber(http()).subscribe(body);
  }

  /** Subscribes through the API, as a user's script would. */
  record Subscriber(org.perftrack.server.support.Http http) {
    void subscribe(Map<String, Object> body) {
      assertThat(http.postJson("/api/v1/subscriptions", json(body), ADMIN_TOKEN).status()).isEqualTo(201);
    }
  }
}
