package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.Segment;
import org.perftrack.server.changepoint.SegmentModel;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.stats.Robust;

/**
 * The change-point model run once on a generated series' final versions ({@code model}: what the data say), and the
 * oracle beside it ({@code oracle}): the same exact Bayes change-point posterior given each series' true noise, that
 * is each version level's true variance (the family's sample noise through the level estimator that suits it, by
 * simulation, plus the series' session SD). Exact for the gaussian and log-normal families; where the noise is not
 * normal (session shifts, drift, outliers) it is a normal of the true variance, so the oracle is the best a method
 * can do only up to that.
 */
final class BayesMethod {
  private final String name;
  private final boolean oracle;
  private final SegmentModel model;
  private static final Map<NoiseFamily, double[]> NOISE = new EnumMap<>(NoiseFamily.class);

  private BayesMethod(String name, boolean oracle, double claimProbability) {
    this.name = name;
    this.oracle = oracle;
    this.model = new SegmentModel(claimProbability, 0.02, org.perftrack.server.changepoint.StepRate.initial());
  }

  static BayesMethod model(double claimProbability) {
    return new BayesMethod("model", false, claimProbability);
  }

  static BayesMethod oracle(double claimProbability) {
    return new BayesMethod("oracle", true, claimProbability);
  }

  String name() {
    return name;
  }

  Posterior judge(LabeledSeries s) {
    if (!oracle) {
      List<Segment.Version> versions = new ArrayList<>();
      for (int k = 0; k < s.samples().length; k++) {
        versions.add(new Segment.Version("1." + k, List.of(s.samples()[k])));
      }
      return model.judge(new Segment(versions, 0));
    }
    NoiseFamily family = NoiseFamily.valueOf(s.family());
    boolean trimmed = trimmed(family);
    double[] noise = noise(family, s.samples()[0].length);
    double[] level = new double[s.samples().length];
    double[] variance = new double[level.length];
    for (int k = 0; k < level.length; k++) {
      level[k] = estimate(s.samples()[k], trimmed);
      variance[k] = s.sessionSd() * s.sessionSd() + noise[0] + noise[1];
    }
    return model.judgeLevels(level, variance, family == NoiseFamily.SLOW_DRIFT);
  }

  /** Each claim and candidate as the evaluation scores it (a rise is a regression when lower is better). */
  static List<Detected> detected(LabeledSeries s, List<Claim> claims) {
    return claims.stream().map(c -> new Detected(c.likeliest(),
        c.up() == (s.direction() == Direction.LOWER_IS_BETTER) ? Regression.Kind.REGRESSION
            : Regression.Kind.IMPROVEMENT, c.first(), c.last())).toList();
  }

  static boolean trimmed(NoiseFamily family) {
    return family == NoiseFamily.HEAVY_TAILS || family == NoiseFamily.OUTLIER_SAMPLES;
  }

  static double estimate(double[] samples, boolean trimmed) {
    double[] logs = Arrays.stream(samples).map(Math::log).toArray();
    return trimmed ? Robust.trimmedMean(logs) : Arrays.stream(logs).average().orElseThrow();
  }

  /** The variance of the family's level estimator from its samples, and of its session factor (by simulation). */
  static synchronized double[] noise(NoiseFamily family, int samples) {
    return NOISE.computeIfAbsent(family, f -> {
      Random random = new Random(f.ordinal());
      int draws = 40_000;
      double[] levels = new double[draws];
      double[] sessions = new double[draws];
      for (int i = 0; i < draws; i++) {
        double[] x = new double[samples];
        for (int j = 0; j < samples; j++) {
          x[j] = f.sample(random);
        }
        levels[i] = estimate(x, trimmed(f));
        sessions[i] = Math.log(f.session(random, 0, 0));
      }
      return new double[] {variance(levels), variance(sessions)};
    });
  }

  private static double variance(double[] x) {
    double mean = Arrays.stream(x).average().orElseThrow();
    return Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / (x.length - 1);
  }
}
