package org.perftrack.server.lab;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.perftrack.server.alerts.AlertService;
import org.springframework.stereotype.Component;

/** The lab's mails, through the alerts outbox: each is queued in the transaction that noticed it, once. */
@Component
class LabMail {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  private final AlertService alerts;

  LabMail(AlertService alerts) {
    this.alerts = alerts;
  }

  void silent(Agents.Agent a) {
    String text = "Agent " + a.machine() + " (" + a.product() + ") is silent: last heartbeat " + WHEN.format(a.lastSeenAt());
    alerts.notice("silent." + a.id() + "." + a.lastSeenAt().toEpochMilli(), a.product(), a.machine(),
        "[perftrack] lab: " + a.machine() + " is silent", text, "/lab");
  }

  void back(Agents.Agent a) {
    alerts.notice("back." + a.id() + "." + Instant.now().toEpochMilli(), a.product(), a.machine(),
        "[perftrack] lab: " + a.machine() + " is back", "Agent " + a.machine() + " (" + a.product()
            + ") is back: heartbeat at " + WHEN.format(Instant.now()), "/lab");
  }

  void failing(Agents.Agent a) {
    alerts.notice("failing." + a.id() + "." + a.lastFailureAt().toEpochMilli(), a.product(), a.machine(),
        "[perftrack] lab: " + a.machine() + " failed " + a.consecutiveFailures() + " jobs in a row",
        "Agent " + a.machine() + " (" + a.product() + ") failed " + a.consecutiveFailures()
            + " jobs in a row; the last: " + a.lastFailure(), "/lab");
  }

  void working(Agents.Agent a) {
    alerts.notice("working." + a.id() + "." + Instant.now().toEpochMilli(), a.product(), a.machine(),
        "[perftrack] lab: " + a.machine() + " finishes jobs again",
        "Agent " + a.machine() + " (" + a.product() + ") finished a job again after failing", "/lab");
  }

  void bisected(Bisections.Bisection b) {
    String subject = "[perftrack] " + b.product() + " on " + b.machine() + ": " + b.sentence();
    alerts.notice("bisection." + b.id(), b.product(), b.machine(), subject,
        b.product() + " " + b.baseline() + " → " + b.version() + " on " + b.machine() + " ("
            + String.join(", ", b.benchmarks()) + "): " + b.sentence(), b.link());
  }
}
