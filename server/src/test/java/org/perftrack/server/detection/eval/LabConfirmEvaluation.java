package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.Segment;
import org.perftrack.server.changepoint.SegmentModel;
import org.perftrack.server.changepoint.StepRate;
import org.perftrack.server.detection.UnsureClaims;

/**
 * {@link Evaluation}'s {@code --lab confirm}: a simulated lab answering confirm jobs. Each series is judged on its
 * first pass (one run a version); while the posterior is unsure ({@link UnsureClaims.Doubt}, the server's rule and
 * thresholds) the lab measures its suspect versions again, each a fresh run of the generator (a new session), one
 * round at a time, at most {@code rounds}; the series is judged again on all its runs (never averaged into the first).
 * Scored before and after, for the model and for the oracle ({@link FamilyOracle}: each run's level and variance as
 * the family gives them, a version's runs weighted by precision; for session shifts the version-level mixture over the
 * combined runs, an approximation once a version has several sessions), with the same lab answering both: the n-th
 * re-run of a version of a series is the same draw for both.
 */
final class LabConfirmEvaluation {
  private final double claimProbability;
  private final int machineCount;
  private final int rounds;
  private final UnsureClaims.Doubt doubt;

  LabConfirmEvaluation(double claimProbability, int machineCount, int rounds, UnsureClaims.Doubt doubt) {
    this.claimProbability = claimProbability;
    this.machineCount = machineCount;
    this.rounds = rounds;
    this.doubt = doubt;
  }

  /**
   * {@code Evaluation ... --lab confirm}: seeds, and optionally {@code --min-snr X}, {@code --machines M},
   * {@code --claim P}, {@code --rounds R} (2), {@code --low L} (0.01), {@code --high H} (0.99), {@code --suspect-mass S}
   * (0.05), {@code --max-versions V} (8): the defaults are {@code perftrack.lab.confirm.*}'s.
   */
  static void main(String[] args, PrintStream out) {
    List<Long> seeds = new ArrayList<>();
    double minSnr = 3;
    int machines = Evaluation.MACHINES;
    double claim = SegmentModel.CLAIM_PROBABILITY;
    int rounds = 2;
    double low = 0.01;
    double high = 0.99;
    double suspectMass = 0.05;
    int maxVersions = 8;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--lab" -> {
          if (!args[++i].equals("confirm")) {
            throw new IllegalArgumentException("--lab takes confirm, not " + args[i]);
          }
        }
        case "--min-snr" -> minSnr = Double.parseDouble(args[++i]);
        case "--machines" -> machines = Integer.parseInt(args[++i]);
        case "--claim" -> claim = Double.parseDouble(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--low" -> low = Double.parseDouble(args[++i]);
        case "--high" -> high = Double.parseDouble(args[++i]);
        case "--suspect-mass" -> suspectMass = Double.parseDouble(args[++i]);
        case "--max-versions" -> maxVersions = Integer.parseInt(args[++i]);
        default -> seeds.add(Long.parseLong(args[i]));
      }
    }
    new LabConfirmEvaluation(claim, machines, rounds, new UnsureClaims.Doubt(low, high, suspectMass, maxVersions))
        .run(seeds.isEmpty() ? List.of(1L, 2L, 3L) : seeds, minSnr, out);
  }

  /** What a method made of the series, before the lab and after it, and what the lab spent. */
  private static final class Tally {
    final Score before = new Score();
    final Score after = new Score();
    final Score smallBefore = new Score();
    final Score smallAfter = new Score();
    long series;
    long sent;
    long versionRuns;
    long machines;
    long machineRounds;
    final long[] perRound = new long[21];
  }

  void run(List<Long> seeds, double minSnr, PrintStream out) {
    SegmentModel model = new SegmentModel(claimProbability, 0.02, StepRate.initial());
    Map<String, Tally> tallies = new LinkedHashMap<>();
    out.printf(Locale.ROOT, "--lab confirm: low %.2f, high %.2f, suspect-mass %.2f, max-versions %d, rounds %d;"
        + " %d machines x %d metrics per seed%n", doubt.low(), doubt.high(), doubt.suspectMass(), doubt.maxVersions(),
        rounds, machineCount, Evaluation.METRICS);
    for (long seed : seeds) {
      SeriesGenerator generator = new SeriesGenerator(seed, minSnr);
      List<Machine> machines = generator.machines(machineCount, Evaluation.METRICS);
      for (String method : List.of("model", "oracle")) {
        Tally t = tallies.computeIfAbsent(method, m -> new Tally());
        for (int mi = 0; mi < machines.size(); mi++) {
          int machineRounds = 0;
          List<LabeledSeries> series = machines.get(mi).series();
          for (int si = 0; si < series.size(); si++) {
            LabeledSeries s = series.get(si);
            long key = (seed * 1_000 + mi) * 1_000 + si;
            machineRounds = Math.max(machineRounds, settle(s, key, generator, model, method.equals("oracle"), t));
          }
          t.machines++;
          t.machineRounds += machineRounds;
        }
      }
    }
    out.printf(Locale.ROOT, "%-7s %-6s %9s %7s %6s %8s %9s %11s %10s %11s %9s %8s%n", "method", "lab", "precision",
        "recall", "F1", "range-F1", "alerts/1k", "small-exact", "small-rng", "runs/series", "runs/mach", "sent");
    tallies.forEach((method, t) -> {
      row(out, method, "none", t.before, t.smallBefore, 0, 0, 0);
      row(out, method, "confirm", t.after, t.smallAfter, (double) t.versionRuns / t.series,
          (double) t.versionRuns / t.machines, (double) t.sent / t.series);
    });
    tallies.forEach((method, t) -> {
      StringBuilder rounds = new StringBuilder();
      for (int r = 1; r < t.perRound.length && t.perRound[r] > 0; r++) {
        rounds.append(String.format(Locale.ROOT, " round %d: %d series;", r, t.perRound[r]));
      }
      out.printf(Locale.ROOT, "%s: rounds per machine %.2f on average;%s%n", method,
          (double) t.machineRounds / t.machines, rounds);
    });
    tallies.forEach((method, t) -> out.printf(Locale.ROOT, "%s counts (to pool runs): steps %d; none: found %d, false %d;"
        + " confirm: found %d, false %d; small steps %d, exact none %d, confirm %d; series %d, machines %d,"
        + " version-runs %d, sent %d, noise-only %d, false alerts none %d, confirm %d%n", method, t.before.labels,
        t.before.truePositives, t.before.falsePositives, t.after.truePositives, t.after.falsePositives,
        t.smallBefore.labels, t.smallBefore.truePositives, t.smallAfter.truePositives, t.series, t.machines,
        t.versionRuns, t.sent, t.before.noiseSeries, t.before.noiseRegressions, t.after.noiseRegressions));
    out.println("runs/series, runs/mach: extra version-runs (one benchmark measured at one version once) per series"
        + " and per machine; sent: share of series sent to the lab at least once; small-exact / small-rng: the two"
        + " small-step families' steps found at their exact version / within the claim's versions.");
  }

  /** Judges the series, lets the lab settle it, scores both; returns the rounds it took. */
  private int settle(LabeledSeries s, long key, SeriesGenerator generator, SegmentModel model, boolean oracle,
      Tally t) {
    List<List<double[]>> runs = new ArrayList<>();
    for (double[] first : s.samples()) {
      runs.add(new ArrayList<>(List.of(first)));
    }
    Posterior p = judge(s, runs, model, oracle);
    add(t.before, t.smallBefore, s, p);
    int round = 0;
    for (List<Integer> suspects = doubt.suspects(p); !suspects.isEmpty() && round < rounds;
        suspects = doubt.suspects(p)) {
      round++;
      t.perRound[Math.min(round, t.perRound.length - 1)]++;
      for (int k : suspects) {
        List<double[]> at = runs.get(k);
        Random random = new Random(key * 1_000_003L + k * 101L + at.size());
        at.add(generator.rerun(s, k, random));
      }
      t.versionRuns += suspects.size();
      p = judge(s, runs, model, oracle);
    }
    t.series++;
    t.sent += round > 0 ? 1 : 0;
    add(t.after, t.smallAfter, s, p);
    return round;
  }

  private static void add(Score all, Score small, LabeledSeries s, Posterior p) {
    List<Detected> found = BayesMethod.detected(s, p.claimed());
    all.add(s, found);
    if (NoiseFamily.valueOf(s.family()).smallSteps()) {
      small.add(s, found);
    }
  }

  /** The model on every run of each version; the oracle on their mean level, of known variance over the runs. */
  private static Posterior judge(LabeledSeries s, List<List<double[]>> runs, SegmentModel model, boolean oracle) {
    if (!oracle) {
      List<Segment.Version> versions = new ArrayList<>();
      for (int k = 0; k < runs.size(); k++) {
        versions.add(new Segment.Version("1." + k, runs.get(k)));
      }
      return model.judge(new Segment(versions, 0));
    }
    NoiseFamily family = NoiseFamily.valueOf(s.family());
    double session = s.sessionSd() * s.sessionSd();
    double[] level = new double[runs.size()];
    double[] variance = new double[level.length];
    for (int k = 0; k < level.length; k++) {
      double sum = 0;
      double weight = 0;
      for (double[] run : runs.get(k)) {
        double[] logs = java.util.Arrays.stream(run).map(Math::log).toArray();
        double[] estimate = switch (family) {
          case BIMODAL -> FamilyOracle.mixture(logs, false);
          case OUTLIER_SAMPLES -> FamilyOracle.mixture(logs, true);
          default -> new double[] {FamilyOracle.estimate(family, logs), FamilyOracle.noise(family, logs.length)};
        };
        double v = estimate[1] + session;
        sum += estimate[0] / v;
        weight += 1 / v;
      }
      level[k] = sum / weight;
      variance[k] = 1 / weight;
    }
    if (family == NoiseFamily.SESSION_SHIFTS) {
      return FamilyOracle.sessionShifts(model, level, variance);
    }
    return model.judgeLevels(level, variance, family == NoiseFamily.SLOW_DRIFT);
  }

  private static void row(PrintStream out, String method, String lab, Score s, Score small, double perSeries,
      double perMachine, double sent) {
    out.printf(Locale.ROOT, "%-7s %-6s %9.4f %7.4f %6.4f %8.4f %9.1f %11.4f %10.4f %11.3f %9.1f %8.3f%n", method, lab,
        s.precision(), s.recall(), s.f1(), s.rangeF1(), s.falseAlertsPerThousand(), small.recall(),
        small.rangeRecall(), perSeries, perMachine, sent);
  }
}
