package org.perftrack.server.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.perftrack.server.lab.BisectionJudge.Verdict;
import org.perftrack.server.lab.Bisections.Bisection;
import org.perftrack.server.lab.Bisections.Unbisected;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Drives bisections: starts one for the regressions of one step (same product, machine, baseline and
 * version: today the seam where a regression summary would group them), schedules a round as a lab job
 * measuring the middle version interleaved with the baseline and the regressed version, and narrows
 * the range with each finished round until a version and its predecessor bracket the step.
 */
@Service
class Bisector {

  private static final Logger log = LoggerFactory.getLogger(Bisector.class);

  private final Bisections bisections;
  private final Agents agents;
  private final Jobs jobs;
  private final LabMail mail;

  Bisector(Bisections bisections, Agents agents, Jobs jobs, LabMail mail) {
    this.bisections = bisections;
    this.agents = agents;
    this.jobs = jobs;
    this.mail = mail;
  }

  /**
   * The "Bisect" button: this regression and its siblings of the same step; an existing bisection is kept. When no
   * agent could bisect it, the answer says why and nothing is kept (no "impossible" bisection stays on the page).
   */
  @Transactional
  public Bisections.State request(long regressionId, String by) {
    Optional<Bisection> existing = bisections.find(regressionId);
    if (existing.isPresent()) {
      return existing.get().state();
    }
    Unbisected r = bisections.regression(regressionId).orElseThrow();
    Optional<String> cannot = Bisections.cannot(agents.find(r.product(), r.machine()), r);
    if (cannot.isPresent()) { // said once, kept nowhere: a later agent may make it possible
      return new Bisections.State(BisectionStatus.IMPOSSIBLE, null, null, 0, "cannot bisect: " + cannot.get());
    }
    List<Unbisected> step = bisections.unbisected(regressionId);
    List<Unbisected> group = step.isEmpty() ? List.of(r) : step;
    long id = create(group, by);
    Bisection b = bisections.byId(id).orElseThrow();
    return schedule(b, true).state();
  }

  /** Starts a bisection for each step that an agent can narrow (versions it offers lie strictly between). */
  @Transactional
  public int startAutomatic() {
    Map<List<String>, List<Unbisected>> steps = bisections.unbisected(null).stream().collect(Collectors.groupingBy(
        u -> List.of(u.product(), u.machine(), u.baseline(), u.version()), LinkedHashMap::new, Collectors.toList()));
    int started = 0;
    for (List<Unbisected> group : steps.values()) {
      Unbisected first = group.get(0);
      Optional<Bisection> covering = bisections.overlapping(first.product(), first.machine(), first.baseline(),
          first.version());
      if (covering.isPresent()) {
        // the same step seen again (a bisection's own uploads re-attribute it): the running bisection serves it
        bisections.link(covering.get().id(), group.stream().map(Unbisected::id).toList());
        continue;
      }
      if (Bisections.cannot(agents.find(first.product(), first.machine()), first).isPresent()) {
        continue;
      }
      schedule(bisections.byId(create(group, "automatic")).orElseThrow(), true);
      started++;
    }
    return started;
  }

  private long create(List<Unbisected> group, String by) {
    Unbisected first = group.get(0);
    List<String> benchmarks = group.stream().map(Unbisected::benchmark).distinct().sorted().toList();
    return bisections.create(first.product(), first.machine(), first.baseline(), first.version(), benchmarks,
        group.stream().map(Unbisected::id).toList(), by);
  }

  /** Advances every active bisection whose round has finished and whose runs have arrived. */
  @Transactional
  public void advance() {
    for (Bisection b : bisections.activeLocked()) {
      if (b.jobId() == null) {
        schedule(b, false);
        continue;
      }
      Jobs.Job job = jobs.find(b.jobId()).orElseThrow();
      if (job.status() == JobStatus.FAILED) {
        finish(b, BisectionStatus.IMPOSSIBLE, "the round measuring " + job.versions().get(1) + " failed: " + job.error());
      } else if (job.status() == JobStatus.DONE && jobs.runsArrived(job)) {
        judge(b, job);
      }
    }
  }

  private void judge(Bisection b, Jobs.Job job) {
    String middle = job.versions().get(1);
    Map<Long, BisectionJudge.SeriesSamples> series = new LinkedHashMap<>();
    Map<Long, Map<String, List<Double>>> byVersion = new LinkedHashMap<>();
    for (Bisections.RoundSample s : bisections.roundSamples(b.id(), job.runIds())) {
      List<Double> values = byVersion.computeIfAbsent(s.seriesId(), k -> new LinkedHashMap<>())
          .computeIfAbsent(s.version(), k -> new ArrayList<>());
      for (double x : s.samples()) {
        values.add(x);
      }
    }
    byVersion.forEach((id, v) -> series.put(id, new BisectionJudge.SeriesSamples(array(v.get(b.baseline())),
        array(v.get(middle)), array(v.get(b.version())))));
    double position = BisectionJudge.position(series.values());
    Verdict verdict = BisectionJudge.verdict(position);
    log.info("bisection {} round {}: {} lies at {} between {} and {}: {}", b.id(), b.rounds() + 1, middle,
        position, b.baseline(), b.version(), verdict);
    if (verdict == Verdict.AMBIGUOUS && !b.remeasured()) {
      remeasure(b, middle);
      return;
    }
    if (verdict == Verdict.AMBIGUOUS) {
      verdict = BisectionJudge.forced(position);
    }
    String lastGood = verdict == Verdict.GOOD ? middle : b.lastGood();
    String firstBad = verdict == Verdict.BAD ? middle : b.firstBad();
    bisections.narrowed(b.id(), lastGood, firstBad);
    schedule(bisections.byId(b.id()).orElseThrow(), false);
  }

  private void remeasure(Bisection b, String middle) {
    Jobs.Job job = jobs.enqueue(b.product(), b.machine(), List.of(b.baseline(), middle, b.version()), b.benchmarks(),
        "bisection", b.id(), "bisection");
    bisections.running(b.id(), job.id(), true);
  }

  /** Queues the next round, or ends the bisection when nothing the agent offers lies in between. */
  private Bisection schedule(Bisection b, boolean first) {
    Optional<Agents.Agent> agent = agents.find(b.product(), b.machine());
    if (agent.isEmpty()) {
      return finish(b, BisectionStatus.IMPOSSIBLE, "no agent runs " + b.product() + " on " + b.machine());
    }
    if (!offersEnds(agent.get(), b.baseline(), b.version())) {
      return finish(b, BisectionStatus.IMPOSSIBLE, "the agent of " + b.machine() + " does not offer both " + b.baseline()
          + " and " + b.version());
    }
    List<String> between = BisectionJudge.between(agent.get().targets(), b.lastGood(), b.firstBad());
    if (between.isEmpty()) {
      return first ? finish(b, BisectionStatus.IMPOSSIBLE, "the agent of " + b.machine() + " offers no version between "
          + b.baseline() + " and " + b.version()) : finish(b, BisectionStatus.DONE, null);
    }
    String middle = BisectionJudge.middle(between);
    Jobs.Job job = jobs.enqueue(b.product(), b.machine(), List.of(b.baseline(), middle, b.version()), b.benchmarks(),
        "bisection", b.id(), "bisection");
    bisections.running(b.id(), job.id(), false);
    return bisections.byId(b.id()).orElseThrow();
  }

  private Bisection finish(Bisection b, BisectionStatus status, String reason) {
    bisections.finished(b.id(), status, reason);
    Bisection done = bisections.byId(b.id()).orElseThrow();
    if (status == BisectionStatus.DONE) {
      mail.bisected(done);
    }
    return done;
  }

  private static boolean offersEnds(Agents.Agent agent, String baseline, String version) {
    return agent.targets().contains(baseline) && agent.targets().contains(version);
  }

  private static double[] array(List<Double> values) {
    return values == null ? new double[0] : values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
