package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeMap;

import org.perftrack.server.detection.Decision;
import org.perftrack.server.detection.DetectionResult;
import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Detector;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Point;
import org.perftrack.server.detection.Reconciler;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Series;
import org.perftrack.server.detection.SeriesUpdate;

/**
 * CI as a noisy shared runner sees it: each build runs a Google Benchmark file of {@value #BENCHMARKS} benchmarks
 * with {@value #REPETITIONS} repetitions and uploads it; the upload's answer fails the build
 * ({@code --fail-on-regression}: any regression the upload created, confirmed or not) or not. Noise: 10 % per
 * sample, one runner factor per job (CV 8 %, all benchmarks of the build), 3 % per benchmark and build, 5 % of
 * samples ×1.5. A stepping product of ten builds gets ×2.0 and ×2.5 on two benchmarks at build 8; an A/A product
 * of fifteen builds changes nothing. Detection and reconciliation run as the server runs them, upload by upload.
 * Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.CiSimulation [seeds]} (default 40 seeds).
 */
public final class CiSimulation {
  static final int BENCHMARKS = 8;
  static final int REPETITIONS = 10;
  static final int STEP_BUILDS = 10;
  static final int CULPRIT = 7;
  static final int AA_BUILDS = 15;
  private static final double[] STEPS = {2.0, 2.5};
  private static final boolean DIAG = System.getProperty("diag") != null;

  public static void main(String[] args) {
    int seeds = args.length == 0 ? 40 : Integer.parseInt(args[0]);
    int culpritFails = 0;
    int culpritNamesBoth = 0;
    int earlyFails = 0;
    int confirmedAtNext = 0;
    int withdrawn = 0;
    int aaFails = 0;
    int aaFailedBuilds = 0;
    for (int seed = 1; seed <= seeds; seed++) {
      Random random = new Random(seed);
      Outcome step = replay(random, STEP_BUILDS, true);
      culpritFails += step.failed[CULPRIT] > 0 ? 1 : 0;
      culpritNamesBoth += step.failed[CULPRIT] == STEPS.length && step.named[CULPRIT] ? 1 : 0;
      boolean early = false;
      for (int b = 0; b < CULPRIT; b++) {
        early |= step.failed[b] > 0;
      }
      earlyFails += early ? 1 : 0;
      confirmedAtNext += step.confirmed[CULPRIT + 1] == STEPS.length ? 1 : 0;
      withdrawn += step.withdrawn;
      Outcome aa = replay(random, AA_BUILDS, false);
      int failedBuilds = 0;
      for (int f : aa.failed) {
        failedBuilds += f > 0 ? 1 : 0;
      }
      aaFails += failedBuilds > 0 ? 1 : 0;
      aaFailedBuilds += failedBuilds;
    }
    System.out.printf(Locale.ROOT, "%d seeds; %d benchmarks x %d repetitions; steps x2.0 and x2.5 at build %d of %d;"
        + " A/A %d builds%n", seeds, BENCHMARKS, REPETITIONS, CULPRIT + 1, STEP_BUILDS, AA_BUILDS);
    System.out.printf(Locale.ROOT, "culprit build fails: %.1f %% of seeds; names both benchmarks: %.1f %% (target >= 95)%n",
        100.0 * culpritFails / seeds, 100.0 * culpritNamesBoth / seeds);
    System.out.printf(Locale.ROOT, "confirmed by the next build: %.1f %%; true steps withdrawn: %d;"
        + " a build before the culprit fails: %.1f %% of seeds%n", 100.0 * confirmedAtNext / seeds, withdrawn,
        100.0 * earlyFails / seeds);
    System.out.printf(Locale.ROOT, "A/A products with no failed build: %.1f %% of seeds (target >= 95); failed builds:"
        + " %d of %d%n", 100.0 - 100.0 * aaFails / seeds, aaFailedBuilds, seeds * AA_BUILDS);
  }

  /**
   * Per build: how many regressions the upload created ({@code failed}), whether they were exactly the stepped
   * benchmarks at the culprit ({@code named}), how many unconfirmed records it confirmed; true steps withdrawn.
   */
  private record Outcome(int[] failed, boolean[] named, int[] confirmed, int withdrawn) {
  }

  private static Outcome replay(Random random, int builds, boolean stepped) {
    Detector detector = new Detector();
    Reconciler reconciler = new Reconciler();
    long[] ids = {1};
    List<TreeMap<Integer, Point>> points = new ArrayList<>();
    List<ReplayStore> stores = new ArrayList<>();
    double[] base = new double[BENCHMARKS];
    for (int m = 0; m < BENCHMARKS; m++) {
      points.add(new TreeMap<>());
      stores.add(new ReplayStore(ids));
      base[m] = Math.exp(Math.log(10_000) * random.nextDouble());
    }
    int[] failed = new int[builds];
    boolean[] named = new boolean[builds];
    int[] confirmed = new int[builds];
    int withdrawn = 0;
    for (int b = 0; b < builds; b++) {
      String version = "1.0." + b;
      double runner = Math.exp(0.08 * random.nextGaussian());
      List<SeriesUpdate> updates = new ArrayList<>();
      for (int m = 0; m < BENCHMARKS; m++) {
        double level = base[m] * runner * Math.exp(0.03 * random.nextGaussian());
        if (stepped && m < STEPS.length && b >= CULPRIT) {
          level *= STEPS[m];
        }
        double[] samples = new double[REPETITIONS];
        for (int r = 0; r < REPETITIONS; r++) {
          samples[r] = level * Math.max(0.05, 1 + 0.1 * random.nextGaussian()) * (random.nextDouble() < 0.05 ? 1.5 : 1);
        }
        points.get(m).put(b, Point.of(version, samples));
        updates.add(new SeriesUpdate(new Series(Direction.LOWER_IS_BETTER, List.copyOf(points.get(m).values())),
            version, DetectionSettings.DEFAULTS));
      }
      List<DetectionResult> results = detector.detectRun(updates);
      if (DIAG && stepped && b == CULPRIT) {
        for (int m = 0; m < STEPS.length; m++) {
          DetectionResult r = results.get(m);
          System.out.printf(Locale.ROOT, "  m%d noise %.3f minEffect %.3f steps %s levels %s%n", m, r.noise(),
              r.minEffect(), r.steps(), java.util.Arrays.toString(java.util.Arrays.stream(r.levels())
                  .map(v -> Math.round(1000 * v / r.levels()[0]) / 1000.0).toArray()));
        }
      }
      boolean onlyStepped = true;
      for (int m = 0; m < BENCHMARKS; m++) {
        ReplayStore store = stores.get(m);
        for (Decision d : reconciler.reconcile(results.get(m), store.all())) {
          boolean raises = d.action() == Decision.Action.CREATE || d.action() == Decision.Action.REOPEN;
          if (raises && d.step().kind() == Regression.Kind.REGRESSION) {
            failed[b]++;
            onlyStepped &= stepped && m < STEPS.length && d.step().version().equals("1.0." + CULPRIT);
          }
          confirmed[b] += d.confirms() ? 1 : 0;
          if (d.action() == Decision.Action.WITHDRAW && stepped && m < STEPS.length
              && store.get(d.regressionId()).version().equals("1.0." + CULPRIT)) {
            withdrawn++;
            if (DIAG) {
              System.out.printf(Locale.ROOT, "  withdrawn at build %d: %s levels %s%n", b, d.reason(),
                  java.util.Arrays.toString(results.get(m).levels()));
            }
          }
          store.apply(d);
        }
      }
      named[b] = onlyStepped;
    }
    return new Outcome(failed, named, confirmed, withdrawn);
  }
}
