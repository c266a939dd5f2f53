package org.perftrack.server.lab;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.perftrack.server.alerts.AlertService;
import org.perftrack.server.changes.ChangeLinks;
import org.springframework.stereotype.Component;

/**
 * The lab's notices, through the alerts outbox: each is queued in the transaction that noticed it, once, as a mail
 * and as the webhooks' {@code agent.*} and {@code bisection.done} events.
 */
@Component
class LabMail {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  private final AlertService alerts;
  private final ChangeLinks changes;

  LabMail(AlertService alerts, ChangeLinks changes) {
    this.alerts = alerts;
    this.changes = changes;
  }

  void silent(Agents.Agent a) {
    String text = "Agent " + a.machine() + " (" + a.product() + ") is silent: last heartbeat " + WHEN.format(a.lastSeenAt());
    agent("agent.silent", "silent." + a.id() + "." + a.lastSeenAt().toEpochMilli(), a,
        "[perftrack] lab: " + a.machine() + " is silent", text);
  }

  void back(Agents.Agent a) {
    agent("agent.back", "back." + a.id() + "." + Instant.now().toEpochMilli(), a,
        "[perftrack] lab: " + a.machine() + " is back", "Agent " + a.machine() + " (" + a.product()
            + ") is back: heartbeat at " + WHEN.format(Instant.now()));
  }

  void failing(Agents.Agent a) {
    agent("agent.failing", "failing." + a.id() + "." + a.lastFailureAt().toEpochMilli(), a,
        "[perftrack] lab: " + a.machine() + " failed " + a.consecutiveFailures() + " jobs in a row",
        "Agent " + a.machine() + " (" + a.product() + ") failed " + a.consecutiveFailures()
            + " jobs in a row; the last: " + a.lastFailure());
  }

  void working(Agents.Agent a) {
    agent("agent.working", "working." + a.id() + "." + Instant.now().toEpochMilli(), a,
        "[perftrack] lab: " + a.machine() + " finishes jobs again",
        "Agent " + a.machine() + " (" + a.product() + ") finished a job again after failing");
  }

  /** A bisection's result; with the link to what changed between its last good and first bad version, if set. */
  void bisected(Bisections.Bisection b) {
    String subject = "[perftrack] " + b.product() + " on " + b.machine() + ": " + b.sentence();
    String changed = b.status() != BisectionStatus.DONE ? null
        : changes.between(b.product(), b.lastGood(), b.firstBad()).range();
    alerts.publish(new AlertService.Event("bisection.done", "bisection." + b.id(), b.product(), b.machine(), subject,
        b.product() + " " + b.baseline() + " → " + b.version() + " on " + b.machine() + " ("
            + String.join(", ", b.benchmarks()) + "): " + b.sentence()
            + (changed == null ? "" : "\nWhat changed from " + b.lastGood() + " to " + b.firstBad() + ": " + changed),
        b.link(), Map.of("bisection", b)));
  }

  /**
   * A schedule that came due and could not run: one notice per schedule, never one per series, and one only while it
   * keeps missing ({@code queued}, the runs it has queued so far, is the same until it queues one again).
   */
  void scheduleMissed(Schedules.Schedule s, long queued, String why) {
    String where = s.product() + (s.machine() == null ? "" : " on " + s.machine());
    Map<String, Object> schedule = new LinkedHashMap<>();
    schedule.put("id", s.id());
    schedule.put("product", s.product());
    schedule.put("machine", s.machine());
    schedule.put("cron", s.cron());
    schedule.put("dueAt", s.nextRunAt());
    schedule.put("reason", why);
    alerts.publish(new AlertService.Event("schedule.missed", "schedule." + s.id() + ".missed-after." + queued,
        s.product(), s.machine(), "[perftrack] lab: the schedule of " + where + " missed its run",
        "Schedule " + s.id() + " (" + s.cron() + ", " + where + ") missed its run due " + WHEN.format(s.nextRunAt())
            + ": " + why, "/lab", Map.of("schedule", schedule)));
  }

  private void agent(String event, String key, Agents.Agent a, String subject, String text) {
    alerts.publish(new AlertService.Event(event, key, a.product(), a.machine(), subject, text, "/lab",
        Map.of("agent", view(a))));
  }

  /** What an {@code agent.*} event carries: the agent, without its token or targets' shells. */
  private static Map<String, Object> view(Agents.Agent a) {
    Map<String, Object> v = new LinkedHashMap<>();
    v.put("id", a.id());
    v.put("product", a.product());
    v.put("machine", a.machine());
    v.put("agentVersion", a.agentVersion());
    v.put("lastSeenAt", a.lastSeenAt());
    v.put("consecutiveFailures", a.consecutiveFailures());
    v.put("lastFailureAt", a.lastFailureAt());
    v.put("lastFailure", a.lastFailure());
    return v;
  }
}
