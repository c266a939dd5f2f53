package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.alerts.Mailbox;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/**
 * A schedule that comes due and cannot run says so once, for the schedule (not per machine or series), in the lab's
 * notices: first with no agent to run it, then, once an agent's run is queued and left waiting, that it still waits;
 * neither is said again while it keeps missing.
 */
class ScheduleMissedTest extends IntegrationTest {

  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Test
  void aScheduleThatMissesItsRunSaysSoOnceUntilItRunsAgain() throws Exception {
    String product = unique("cygwin");
    String machine = unique("lab");
    Http.Response schedule = http().postJson("/api/v1/lab/schedules", "{\"product\": \"" + product
        + "\", \"machine\": \"" + machine + "\", \"cron\": \"* * * * * *\"}", ADMIN_TOKEN);
    assertThat(schedule.status()).as(schedule.body()).isEqualTo(200);
    long id = schedule.json().get("id").asLong();

    MimeMessage first = await().atMost(Duration.ofSeconds(30)).until(() -> missed(product), m -> m.size() == 1).get(0);
    assertThat(first.getSubject()).isEqualTo("[perftrack] lab: the schedule of " + product + " on " + machine
        + " missed its run");
    assertThat(Mailbox.part(first, "text/plain")).contains("Schedule " + id + " (* * * * * *, " + product + " on "
        + machine + ") missed its run due ", ": no agent of " + product + " on " + machine + " offers anything to run");
    firingsGoBy(id);
    assertThat(noticesOf(product)).as("once, however often it fires").isEqualTo(1);

    Http.Response agent = http().postJson("/api/v1/lab/agents", json(new LabApi.Registration(product, machine,
        "test", 1, List.of("1.0", "1.1"))), TOKEN);
    assertThat(agent.status()).as(agent.body()).isEqualTo(200);
    MimeMessage second = await().atMost(Duration.ofSeconds(30)).until(() -> missed(product), m -> m.size() == 2)
        .get(1);
    assertThat(Mailbox.part(second, "text/plain")).contains("the run it queued before still waits for " + machine);
    firingsGoBy(id);
    assertThat(noticesOf(product)).as("once while its run waits").isEqualTo(2);
    assertThat(jdbc.sql("SELECT count(*) FROM lab_job WHERE created_by = ?").param("schedule " + id)
        .query(Long.class).single()).as("the waiting run is not queued again").isEqualTo(1);
  }

  /** Waits until the schedule has come due at least twice more. */
  private void firingsGoBy(long id) {
    Instant from = Instant.now().plusSeconds(2);
    await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("SELECT next_run_at FROM lab_schedule WHERE id = ?")
        .param(id).query(OffsetDateTime.class).single().toInstant().isAfter(from));
  }

  private long noticesOf(String product) {
    return jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind = 'lab' AND subject LIKE ?")
        .param("%schedule of " + product + " %").query(Long.class).single();
  }

  private static List<MimeMessage> missed(String product) throws Exception {
    return mailbox.awaitMessages(ALERT_RECIPIENT, 0, Duration.ofSeconds(1)).stream()
        .filter(m -> Mailbox.subject(m).contains("schedule of " + product + " ")).toList();
  }
}
