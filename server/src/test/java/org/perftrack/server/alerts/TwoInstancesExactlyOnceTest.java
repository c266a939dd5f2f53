package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.db.EmbeddedPostgresServer;
import org.perftrack.server.summaries.Seed003;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two perftrack servers on one PostgreSQL, both sending: a burst of 200 regressions (200 uploads,
 * queued half through each server, from four threads) reaches every address exactly once; seed 003
 * uploaded on three machines through both servers is one summary mail per address.
 */
class TwoInstancesExactlyOnceTest extends IntegrationTest {

  static final int BURST = 200;
  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Autowired AlertService alertsA;
  @Autowired OutboxSender senderA;
  @Autowired EmbeddedPostgresServer postgres;

  @Test
  void aBurstOf200RegressionsIsMailedExactlyOnceByTwoServersSharingTheDatabase() throws Exception {
    String product = unique("burst");
    String dev = unique("burst") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", dev, "product", product));

    try (ConfigurableApplicationContext b = secondServer(postgres)) {
      AlertService alertsB = b.getBean(AlertService.class);
      String ownerB = b.getBean(OutboxSender.class).owner();
      long started = System.nanoTime();
      queueBurst(product, List.of(alertsA, alertsB));
      long queued = System.nanoTime();

      // wait on the outbox (a cheap query), not by copying GreenMail's messages in a tight loop
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(25)).until(() -> jdbc.sql(
          "SELECT count(*) FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ? AND status = 'sent'").param("%" + product + "%")
          .query(Long.class).single() == 2L * BURST);
      long delivered = System.nanoTime();
      senderA.drain(); // a whole pass of each sender: nothing sent twice
      b.getBean(OutboxSender.class).drain();
      assertThat(mailbox.to(dev)).hasSize(BURST);

      List<MimeMessage> toDev = mailbox.to(dev);
      List<MimeMessage> toTeam = mailbox.to(ALERT_RECIPIENT).stream()
          .filter(m -> Mailbox.subject(m).contains(product)).toList();
      assertThat(toDev).hasSize(BURST);
      assertThat(toDev.stream().map(m -> Mailbox.header(m, "Message-ID")).distinct()).hasSize(BURST);
      assertThat(toDev.stream().map(Mailbox::subject).distinct()).as("one mail per upload").hasSize(BURST);
      assertThat(toTeam).hasSize(BURST);
      assertThat(toTeam.stream().map(m -> Mailbox.header(m, "Message-ID")).distinct()).hasSize(BURST);

      Map<String, Long> sentBy = jdbc.sql("""
          SELECT sent_by, count(*) FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ? AND status = 'sent' GROUP BY sent_by""")
          .param("%" + product + "%").query((rs, i) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
          .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
      assertThat(sentBy.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2L * BURST);
      assertThat(sentBy).as("both servers sent").containsKeys(senderA.owner(), ownerB);
      assertThat(jdbc.sql("SELECT max(attempts) FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ?").param("%" + product + "%")
          .query(Integer.class).single()).isEqualTo(1);
      report(product, sentBy, (queued - started) / 1e6, (delivered - started) / 1e6);
    }
  }

  @Test
  void seed003UploadedOnThreeMachinesThroughTwoServersIsOneSummaryMailPerRecipient() throws Exception {
    String product = unique("cygwin");
    String dev = unique("maintainer") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", dev, "product", product));

    try (ConfigurableApplicationContext b = secondServer(postgres)) {
      List<Http> servers = List.of(http(), new Http("http://localhost:" + b.getEnvironment()
          .getProperty("local.server.port")));
      long summary = 0;
      List<String> machines = List.of(unique("xp-lab"), unique("w2k3-lab"), unique("xp-office"));
      for (int i = 0; i < machines.size(); i++) {
        Http server = servers.get(i % 2);
        upload(server, Seed003.run(product, machines.get(i), "1.5.19-4", 18, 1));
        RunUpload slow = Seed003.run(product, machines.get(i), "1.5.24-2", 48, 3000);
        summary = upload(server, slow).get("summaries").get(0).get("id").asLong();
        assertThat(servers.get((i + 1) % 2).postJson("/api/v1/runs", json(slow), TOKEN).status())
            .as("the same run again, through the other server").isEqualTo(200);
      }
      jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
          .update(); // the settle time is over: both servers' senders race for the rows

      for (String to : List.of(dev, ALERT_RECIPIENT)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> about(product, to).size() >= 1);
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql(
          "SELECT count(*) FROM alert_outbox WHERE subject LIKE ? AND status = 'sent'").param("%" + product + "%")
          .query(Long.class).single() == 2L);
      senderA.drain(); // a whole pass of each sender: nothing sent twice
      b.getBean(OutboxSender.class).drain();
      assertThat(about(product, dev)).hasSize(1);
      assertThat(about(product, ALERT_RECIPIENT)).hasSize(1);
      assertThat(Mailbox.subject(about(product, dev).get(0)))
          .isEqualTo("[perftrack] " + product + " 1.5.24-2: 3 regressions on 3 of 3 machines, worst write-64b ×2.67"
              + " (unconfirmed: one build so far)");
      assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE subject LIKE ?").param("%" + product + "%")
          .query(Long.class).single()).as("two rows (one per recipient), no per-run mail").isEqualTo(2);
    }
  }

  private static List<MimeMessage> about(String product, String to) {
    return mailbox.to(to).stream().filter(m -> Mailbox.subject(m).contains(product)).toList();
  }

  private static tools.jackson.databind.JsonNode upload(Http server, RunUpload run) {
    Http.Response r = server.postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  private void queueBurst(String product, List<AlertService> servers) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int i = 0; i < BURST; i++) {
        AlertService server = servers.get(i % 2);
        var regression = RegressionValues.slower(product, "xp-lab-" + (i % 10), "write-64b", "2.0." + i, "2.0." + (i + 1),
            18.0, 48.0 + i / 100.0);
        done.add(pool.submit(() -> server.onRegressionsCreated(UUID.randomUUID(), List.of(regression))));
      }
      for (Future<Integer> f : done) {
        assertThat(f.get()).as("the subscriber and the team").isEqualTo(2);
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Latency per mail from the database's own clock: queued (transaction start) → SMTP accepted. */
  private void report(String product, Map<String, Long> sentBy, double queueMs, double deliverMs) {
    List<Double> ms = jdbc.sql("""
        SELECT extract(epoch FROM sent_at - created_at) * 1000 FROM alert_outbox WHERE kind <> 'summary' AND subject LIKE ? ORDER BY 1""")
        .param("%" + product + "%").query(Double.class).list();
    System.out.printf("ALERTS-BURST mails=%d sentBy=%s queue=%.0fms allSent=%.0fms "
            + "latency p50=%.0fms p95=%.0fms max=%.0fms%n", ms.size(), sentBy.values(), queueMs, deliverMs,
        ms.get(ms.size() / 2), ms.get((int) (ms.size() * 0.95)), ms.get(ms.size() - 1));
  }

  /** A second server on the shared database, sending mail and webhooks as the first does. */
  static ConfigurableApplicationContext secondServer(EmbeddedPostgresServer db) {
    return new SpringApplicationBuilder(PerftrackApplication.class).run(
        "--server.port=0", "--spring.datasource.url=" + db.jdbcUrl(), "--spring.datasource.username=" + db.username(),
        "--spring.datasource.password=" + db.password(),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=" + ADMIN_PASSWORD,
        // instances of one database share its token pepper (without it this one stored the token unpeppered)
        "--perftrack.security.token-pepper=" + TOKEN_PEPPER, "--spring.mail.host=127.0.0.1", "--spring.mail.port=" + MAIL_PORT,
        "--perftrack.alerts.recipients=" + ALERT_RECIPIENT, "--perftrack.alerts.poll-interval=100ms",
        "--perftrack.alerts.backoff=100ms", "--perftrack.alerts.max-backoff=500ms", "--perftrack.public-url=" + PUBLIC_URL,
        "--perftrack.webhooks.allowed-networks=" + WEBHOOK_NETWORKS);
  }
}
