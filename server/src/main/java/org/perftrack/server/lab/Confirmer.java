package org.perftrack.server.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.alerts.AlertService;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.detection.UnsureClaims;
import org.perftrack.server.lab.Confirmations.Confirmation;
import org.perftrack.server.lab.Confirmations.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Settles what detection is unsure of: for each unsure claim on a machine whose agent takes confirm jobs, the lab
 * measures the suspect versions again (and the one before them), one job per machine and round holding an entry per
 * series, at most {@code perftrack.lab.confirm.rounds} rounds ({@code idle-rounds} when no other job of the machine
 * has waited an hour). The answers are ordinary further runs, judged as every upload is; after each round the claim
 * is looked at again: withdrawn when detection withdrew it; placed when detection holds it at one version and the
 * model is no longer unsure (or the rounds are spent); still unsure when it stays a range after the last round; else
 * another round. A
 * confirmation that cannot run says so and leaves the claim as it was.
 */
@Service
class Confirmer {

  private static final Logger log = LoggerFactory.getLogger(Confirmer.class);

  private final UnsureClaims unsure;
  private final Confirmations confirmations;
  private final Regressions regressions;
  private final Agents agents;
  private final Jobs jobs;
  private final ConfirmProperties props;
  private final AlertService alerts;

  Confirmer(UnsureClaims unsure, Confirmations confirmations, Regressions regressions, Agents agents, Jobs jobs,
      ConfirmProperties props, AlertService alerts) {
    this.alerts = alerts;
    this.unsure = unsure;
    this.confirmations = confirmations;
    this.regressions = regressions;
    this.agents = agents;
    this.jobs = jobs;
    this.props = props;
  }

  /** A confirmation for each unsure claim an agent that takes confirm jobs could settle; returns how many. */
  @Transactional
  public int start() {
    int started = 0;
    for (UnsureClaims.UnsureClaim c : unsure.unsure(props.doubt())) {
      List<String> versions = c.suspects();
      if (confirmations.create(c.product(), c.machine(), c.seriesId(), c.regressionId(),
          c.benchmark(), c.metric(), versions).isPresent()) {
        started++;
      }
    }
    return started;
  }

  /** Looks at each confirmation under way: a finished round is judged, and each machine gets its next round's job. */
  @Transactional
  public void advance() {
    Map<List<String>, List<Confirmation>> waiting = new LinkedHashMap<>();
    for (Confirmation c : confirmations.runningLocked()) {
      Optional<Confirmation> next = c.jobId() == null ? Optional.of(c) : afterRound(c);
      next.ifPresent(w -> waiting.computeIfAbsent(List.of(w.product(), w.machine()), k -> new ArrayList<>()).add(w));
    }
    waiting.values().forEach(this::queueRound);
  }

  /** The confirmation again when it waits for another round; empty while its round runs or once it is finished. */
  private Optional<Confirmation> afterRound(Confirmation c) {
    Jobs.Job job = jobs.find(c.jobId()).orElseThrow();
    if (job.status() == JobStatus.FAILED) {
      finish(c, Status.IMPOSSIBLE, "the confirm job failed: " + job.error());
      return Optional.empty();
    }
    if (job.status() != JobStatus.DONE || !jobs.runsArrived(job)) {
      return Optional.empty();
    }
    confirmations.roundDone(c.id());
    Confirmation done = new Confirmation(c.id(), c.product(), c.machine(), c.seriesId(), c.regressionId(),
        c.benchmark(), c.metric(), c.versions(), c.status(), c.rounds() + 1, null, null, c.createdAt(), null);
    return judge(done) ? Optional.empty() : Optional.of(done);
  }

  /** True when the claim is settled (or the rounds are spent) and the confirmation finished. */
  private boolean judge(Confirmation c) {
    Optional<Regression> found = regressions.find(c.regressionId());
    String reruns = c.rounds() + (c.rounds() == 1 ? " re-run of " : " re-runs of ") + c.range();
    if (found.isEmpty() || found.get().status() == Regression.Status.WITHDRAWN) {
      finish(c, Status.WITHDRAWN, "the re-runs show no step (" + reruns + ")");
      return true;
    }
    Regression r = found.get();
    boolean settled = !unsure.isUnsure(r.id(), props.doubt()).orElse(false);
    boolean spent = c.rounds() >= props.roundsFor(confirmations.othersWaitedAnHour(c.product(), c.machine()));
    if (!r.ranged() && (settled || spent)) {
      String outcome = "placed at " + r.version() + " after " + reruns;
      finish(c, Status.PLACED, outcome);
      unsure.placed(r.id(), outcome);
      // no mail of its own (the regression's mail, held for the round, goes out now); webhooks that follow it hear it
      alerts.publish(new AlertService.Event("regression.placed", "placed." + r.id() + "." + r.version(), r.product(),
          r.machine(), null, r.product() + " " + r.benchmark() + " on " + r.machine() + ": " + outcome,
          "/regressions/" + r.id(), Map.of("regression", r)));
      return true;
    }
    if (spent) { // detection still holds a range: another round while there is one, even when the model is sure
      finish(c, Status.UNSURE, "still " + r.place() + " after " + reruns);
      return true;
    }
    return false;
  }

  /** One confirm job for the machine's confirmations waiting for a round (or none can run: each says why). */
  private void queueRound(List<Confirmation> waiting) {
    Confirmation first = waiting.get(0);
    if (confirmations.roundUnderWay(first.product(), first.machine())) {
      return;
    }
    Optional<Agents.Agent> agent = agents.find(first.product(), first.machine());
    List<Confirmation> runnable = new ArrayList<>();
    for (Confirmation c : waiting) {
      String why = agent.isEmpty() ? "no agent runs " + c.product() + " on " + c.machine()
          : !agent.get().kinds().contains(JobKind.CONFIRM) ? "the agent of " + c.machine() + " takes no confirm jobs"
          : !agent.get().targets().containsAll(c.versions()) ? "the agent of " + c.machine() + " does not offer "
              + String.join(", ", c.versions().stream().filter(v -> !agent.get().targets().contains(v)).toList())
          : null;
      if (why != null) {
        finish(c, Status.IMPOSSIBLE, "cannot confirm: " + why);
      } else {
        runnable.add(c);
      }
    }
    if (!runnable.isEmpty()) {
      Jobs.Job job = jobs.enqueue(first.product(), first.machine(), "confirm",
          runnable.stream().map(Confirmation::entry).toList(), "confirm");
      confirmations.measuring(runnable.stream().map(Confirmation::id).toList(), job.id());
      log.info("confirm job {} on {}: {}", job.id(), first.machine(), job.about());
    }
  }

  private void finish(Confirmation c, Status status, String outcome) {
    confirmations.finished(c.id(), status, outcome);
    alerts.releaseHeld(c.regressionId(), regressions.find(c.regressionId())
        .filter(r -> r.status() != Regression.Status.WITHDRAWN).orElse(null));
    log.info("confirmation {} of regression {}: {}", c.id(), c.regressionId(), outcome);
  }
}
