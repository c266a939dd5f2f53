package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * SMTP is down when the regression is found: the mail waits in the outbox with its error recorded, the
 * service stays UP, and the mail goes out exactly once when SMTP comes back (GreenMail started late).
 */
class SmtpOutageTest extends IntegrationTest {

  @Autowired AlertService alerts;
  @Autowired OutboxSender sender;

  @Test
  void aMailQueuedWhileSmtpIsDownIsDeliveredOnceWhenItComesBack() throws Exception {
    String product = unique("cygwin");
    String ops = unique("ops") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", ops, "product", product));

    alerts.onRegressionsCreated(UUID.randomUUID(), List.of(RegressionValues.write64b(product, unique("xp-lab"))));

    await().atMost(Duration.ofSeconds(10)).until(() -> row(ops).attempts() >= 2);
    Row waiting = row(ops);
    assertThat(waiting.status()).isEqualTo("pending");
    assertThat(waiting.lastError()).contains("Connection refused");
    assertThat(http().get("/actuator/health").json().get("status").asString())
        .as("SMTP down does not take the service down").isEqualTo("UP");
    assertThat(http().get("/actuator/health").body()).as("anonymous callers see the status only")
        .isEqualTo("{\"status\":\"UP\"}");
    assertThat(http().get("/actuator/health/mailOutbox").status()).as("details only for admins").isEqualTo(404);
    // 'failing' when another test's mail in this shared database already ran out of attempts
    assertThat(adminHealth()).contains("\"status\":\"UP\"", "Connection refused", "127.0.0.1:" + MAIL_PORT)
        .containsPattern("\"state\":\"(retrying|failing)\"");

    try (Mailbox mailbox = Mailbox.started(MAIL_PORT)) {
      assertThat(mailbox.awaitMessages(ops, 1, Duration.ofSeconds(10))).hasSize(1);
      await().atMost(Duration.ofSeconds(5)).until(() -> row(ops).status().equals("sent"));
      // the sender keeps polling every 100 ms: a whole pass of it sends nothing a second time
      sender.drain();
      assertThat(mailbox.to(ops)).hasSize(1);
      Row sent = row(ops);
      assertThat(sent.attempts()).isGreaterThanOrEqualTo(3);
      assertThat(sent.sentAt()).isNotNull();
    }
  }

  @Test
  void anOperatorQueuesFailedMailsAgainFromTheOutboxPage() throws Exception {
    String product = unique("cygwin");
    String gone = unique("gone") + "@example.org";
    new AlertMailTest.Subscriber(http()).subscribe(Map.of("email", gone, "product", product));
    alerts.onRegressionsCreated(UUID.randomUUID(), List.of(RegressionValues.write64b(product, unique("xp-lab"))));
    // as if SMTP had refused it max-attempts times
    jdbc.sql("UPDATE alert_outbox SET status = 'failed', attempts = 20, last_error = 'SMTPSendFailedException: 451'"
        + " WHERE recipient = ?").param(gone).update();
    FormClient browser = signedInAdmin();
    assertThat(browser.get("/admin").body()).as("the admin page links the outbox").contains("href=\"/admin/outbox\"");
    String page = browser.get("/admin/outbox?status=failed").body();
    assertThat(page).contains(gone, "SMTPSendFailedException: 451");

    var retried = browser.post("/admin/outbox?status=failed", "/admin/outbox/retry", "");

    assertThat(retried.statusCode()).isEqualTo(302);
    assertThat(row(gone).status()).isIn("pending", "sending");
    assertThat(row(gone).attempts()).isLessThan(20);
    assertThat(http().get("/admin/outbox").status()).as("operators only").isIn(302, 401, 403);
  }

  record Row(String status, int attempts, String lastError, java.time.Instant sentAt) {}

  private Row row(String recipient) {
    return jdbc.sql("SELECT status, attempts, last_error, sent_at FROM alert_outbox WHERE kind <> 'summary' AND recipient = ?")
        .param(recipient).query(Row.class).single();
  }

  private String adminHealth() throws Exception {
    FormClient browser = signedInAdmin();
    assertThat(browser.get("/admin/outbox").body()).contains("Mail outbox", "Connection refused");
    return browser.get("/actuator/health/mailOutbox", "*/*").body();
  }
}
