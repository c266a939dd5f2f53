package org.perftrack.server.lab;

import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.perftrack.server.background.BackgroundThread;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The lab's clock, one thread per server: leases that ran out, due schedules, silent agents, and
 * confirmations and bisections to start or advance. Each step locks what it works on ({@code FOR UPDATE SKIP LOCKED} or an
 * {@code UPDATE … RETURNING}), so several servers on one database do each thing once.
 */
@Component
class LabTicker extends BackgroundThread {

  private static final Logger log = LoggerFactory.getLogger(LabTicker.class);

  private final LabProperties props;
  private final Agents agents;
  private final Jobs jobs;
  private final Schedules schedules;
  private final Bisector bisector;
  private final Confirmer confirmer;
  private final LabMail mail;
  private final ProfileJobs profiles;
  private final ProfileProperties profileProps;
  private final TransactionTemplate tx;

  LabTicker(LabProperties props, Agents agents, Jobs jobs, Schedules schedules, Bisector bisector, Confirmer confirmer,
      LabMail mail, ProfileJobs profiles, ProfileProperties profileProps, TransactionTemplate tx) {
    super("perftrack-lab", Thread.NORM_PRIORITY);
    this.props = props;
    this.agents = agents;
    this.jobs = jobs;
    this.schedules = schedules;
    this.bisector = bisector;
    this.confirmer = confirmer;
    this.mail = mail;
    this.profiles = profiles;
    this.profileProps = profileProps;
    this.tx = tx;
  }

  /** One tick at a time (the scheduler's and a test's): a claim is judged for confirmation before bisection sees it. */
  synchronized void tick() {
    try {
      tx.executeWithoutResult(s -> jobs.expireLeases(props.maxAttempts()));
      tx.executeWithoutResult(s -> agents.newlySilent(props.silentAfter()).forEach(mail::silent));
      tx.executeWithoutResult(s -> runSchedules());
      // before bisections start: an unsure claim goes to an agent that takes confirm jobs as a confirmation
      confirmer.start();
      confirmer.advance();
      if (props.bisectAutomatically()) {
        bisector.startAutomatic();
      }
      bisector.advance();
      if (profileProps.automatically()) {
        profiles.startAutomatic();
      }
    } catch (RuntimeException e) {
      log.warn("lab tick failed; the next one tries again", e);
    }
  }

  /**
   * Queues each due schedule's run on every agent of its product (and machine) that offers targets. A run it cannot
   * queue, because no such agent is there or the run it queued last time still waits for its agent (queued again it
   * would only pile up), is missed: one notice for the schedule, whatever the number of machines and series, and
   * one only until it queues a run again.
   */
  private void runSchedules() {
    for (Schedules.Schedule s : schedules.dueLocked()) {
      String by = "schedule " + s.id();
      java.util.List<String> waiting = new java.util.ArrayList<>();
      int queued = 0;
      for (Agents.Agent a : agents.ofProduct(s.product(), s.machine())) {
        if (a.targets().isEmpty()) {
          continue;
        }
        if (jobs.waiting(by, a.product(), a.machine())) {
          waiting.add(a.machine());
        } else {
          jobs.enqueue(a.product(), a.machine(), a.targets(), null, "schedule", null, by);
          queued++;
        }
      }
      if (queued == 0 || !waiting.isEmpty()) {
        mail.scheduleMissed(s, jobs.queuedBy(by), waiting.isEmpty() ? "no agent of " + s.product()
            + (s.machine() == null ? "" : " on " + s.machine()) + " offers anything to run"
            : "the run it queued before still waits for " + String.join(", ", waiting));
      }
      schedules.advanced(s.id(), Schedules.next(Schedules.parse(s.cron()), Instant.now()));
    }
  }

  @Override
  protected void started(ScheduledExecutorService executor) {
    long millis = Math.max(50, props.tick().toMillis());
    executor.scheduleWithFixedDelay(this::tick, millis, millis, TimeUnit.MILLISECONDS);
  }
}
