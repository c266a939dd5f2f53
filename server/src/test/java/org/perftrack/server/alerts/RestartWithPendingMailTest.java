package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.db.MigratedData;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Mail queued while SMTP was down survives a restart: the server stops with one mail waiting for its
 * retry and one left mid-send by a server that died (a 'sending' row whose lease runs out); the
 * restarted server on the same data directory delivers both, once each.
 */
class RestartWithPendingMailTest {

  static final String OPS = "ops@restart.test";

  @TempDir
  Path dir;

  @Test
  void pendingMailIsDeliveredOnceByTheRestartedServer() throws IOException {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    int smtpPort = freePort();
    List<String> ids;
    try (ConfigurableApplicationContext first = start(data, smtpPort)) {
      AlertService alerts = first.getBean(AlertService.class);
      alerts.onRegressionsCreated(UUID.randomUUID(), List.of(RegressionValues.write64b("cygwin", "xp-lab-01")));
      alerts.onRegressionsCreated(UUID.randomUUID(),
          List.of(RegressionValues.slower("cygwin", "xp-lab-01", "fork", "1.7.5", "1.7.7", 70, 140)));
      JdbcClient jdbc = first.getBean(JdbcClient.class);
      await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql(
          "SELECT count(*) FROM alert_outbox WHERE kind <> 'summary' AND attempts > 0 AND status = 'pending'").query(Long.class).single() == 2);
      // a server that claimed this mail and died before SMTP answered: its lease ends 2 s from now
      jdbc.sql("""
          UPDATE alert_outbox SET status = 'sending', locked_by = 'died-mid-send', locked_until = now() + interval '2 seconds'
          WHERE id = (SELECT min(id) FROM alert_outbox)""").update();
      ids = jdbc.sql("SELECT message_id FROM alert_outbox ORDER BY id").query(String.class).list();
    }

    try (Mailbox mailbox = Mailbox.started(smtpPort);
        ConfigurableApplicationContext second = start(data, smtpPort)) {
      List<MimeMessage> mails = mailbox.awaitMessages(OPS, 2, Duration.ofSeconds(15));
      second.getBean(OutboxSender.class).drain(); // a whole pass of the sender: nothing sent twice
      assertThat(mailbox.to(OPS)).hasSize(2);
      assertThat(mails).extracting(Mailbox::subject).containsExactlyInAnyOrder(
          "[perftrack] cygwin 1.5.24-2 on xp-lab-01: 1 regression (write-64b ×2.67)",
          "[perftrack] cygwin 1.7.7 on xp-lab-01: 1 regression (fork ×2)");
      assertThat(mails).extracting(m -> Mailbox.header(m, "Message-ID")).containsExactlyInAnyOrderElementsOf(ids);
      JdbcClient jdbc = second.getBean(JdbcClient.class);
      await().atMost(Duration.ofSeconds(5)).until(() -> jdbc.sql(
          "SELECT count(*) FROM alert_outbox WHERE status = 'sent'").query(Long.class).single() == 2);
    }
  }

  private static ConfigurableApplicationContext start(Path data, int smtpPort) {
    return new SpringApplicationBuilder(PerftrackApplication.class).run(
        "--server.port=0", "--perftrack.embedded-db.dir=" + data, "--perftrack.bootstrap-token=restart-token-42",
        "--perftrack.admin.password=pw", "--spring.mail.host=127.0.0.1", "--spring.mail.port=" + smtpPort,
        "--perftrack.alerts.recipients=" + OPS, "--perftrack.alerts.poll-interval=100ms",
        "--perftrack.alerts.backoff=100ms", "--perftrack.alerts.max-backoff=500ms");
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
