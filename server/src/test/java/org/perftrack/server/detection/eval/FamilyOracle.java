package org.perftrack.server.detection.eval;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.SegmentModel;

/**
 * The oracle of the evaluation: the change-point posterior given each series' true noise family and parameters
 * ({@link NoiseFamily}, the series' session SD). Each version's level is the estimate that suits the family, with the
 * variance that family and parameters give it:
 * <ul>
 *   <li>gaussian samples: the log of their mean (sufficient); log-normal: the mean of their logs (exact);
 *   <li>Student-t(3) samples: their maximum-likelihood location;
 *   <li>bimodal and outlier samples: the exact mixture likelihood of the version's level, every assignment of its
 *       samples to the family's components summed ({@code 2^5}), as one normal of the mixture's mean and variance;
 *   <li>session shifts (8 % of sessions ×1.05–1.30): the version-level mixture, each version's chance of being
 *       shifted given the fitted levels of the likeliest steps (three rounds), its weight lowered by that chance;
 *   <li>slow drift: a slope per version integrated out (the family's drift).
 * </ul>
 * Variances of the estimators are simulated once per family; the series' session SD adds to each.
 */
final class FamilyOracle {
  private static final double SAMPLE_SD = 0.01;
  private static final double BIMODAL_HIGH = Math.log(1.08);
  private static final double SHIFT_SHARE = 0.08;
  private static final double SHIFT_LOW = 1.05;
  private static final double SHIFT_HIGH = 1.30;
  private static final Map<NoiseFamily, Double> NOISE = new EnumMap<>(NoiseFamily.class);

  private FamilyOracle() {
  }

  static Posterior judge(SegmentModel model, LabeledSeries s) {
    NoiseFamily family = NoiseFamily.valueOf(s.family());
    int n = s.samples().length;
    double[] level = new double[n];
    double[] variance = new double[n];
    double session = s.sessionSd() * s.sessionSd();
    for (int k = 0; k < n; k++) {
      double[] logs = Arrays.stream(s.samples()[k]).map(Math::log).toArray();
      double[] estimate = switch (family) {
        case BIMODAL -> mixture(logs, false);
        case OUTLIER_SAMPLES -> mixture(logs, true);
        default -> new double[] {estimate(family, logs), noise(family, logs.length)};
      };
      level[k] = estimate[0];
      variance[k] = estimate[1] + session;
    }
    if (family == NoiseFamily.SESSION_SHIFTS) {
      return sessionShifts(model, level, variance);
    }
    return model.judgeLevels(level, variance, family == NoiseFamily.SLOW_DRIFT);
  }

  static double estimate(NoiseFamily family, double[] logs) {
    return switch (family) {
      case GAUSSIAN_0_5, GAUSSIAN_1, GAUSSIAN_2, GAUSSIAN_5, SMALL_STEPS_GAUSSIAN_8, SESSION_SHIFTS, SLOW_DRIFT ->
          Math.log(Arrays.stream(logs).map(Math::exp).average().orElseThrow());
      case HEAVY_TAILS -> studentLocation(logs);
      default -> Arrays.stream(logs).average().orElseThrow();
    };
  }

  /** The maximum-likelihood location of Student-t(3) samples of scale {@link #SAMPLE_SD} (reweighted means). */
  static double studentLocation(double[] x) {
    double mu = org.perftrack.server.stats.Robust.median(x);
    for (int i = 0; i < 30; i++) {
      double sum = 0;
      double weight = 0;
      for (double v : x) {
        double r = (v - mu) / SAMPLE_SD;
        double w = 4 / (3 + r * r);
        sum += w * v;
        weight += w;
      }
      mu = sum / weight;
    }
    return mu;
  }

  /**
   * The level of one version's samples (logs) under the family's per-sample mixture, every assignment summed: its
   * mean and variance. Bimodal: 70 % at the level, 30 % at +8 %. Outliers: 95 % at the level, 5 % ×1.5..3 (uniform).
   */
  static double[] mixture(double[] x, boolean outliers) {
    int n = x.length;
    double sigma2 = SAMPLE_SD * SAMPLE_SD;
    double[] logWeight = new double[1 << n];
    double[] mean = new double[1 << n];
    double[] var = new double[1 << n];
    double max = Double.NEGATIVE_INFINITY;
    for (int a = 0; a < 1 << n; a++) {
      int normal = n - Integer.bitCount(a);
      if (normal == 0) {
        logWeight[a] = Double.NEGATIVE_INFINITY;
        continue;
      }
      double sum = 0;
      for (int j = 0; j < n; j++) {
        boolean other = (a >> j & 1) == 1;
        sum += outliers && other ? 0 : x[j] - (other ? BIMODAL_HIGH : 0);
      }
      double m = sum / (outliers ? normal : n);
      double ss = 0;
      double lw = 0;
      for (int j = 0; j < n; j++) {
        boolean other = (a >> j & 1) == 1;
        if (outliers && other) {
          lw += Math.log(0.05) + outlierLogDensity(x[j] - m);
        } else {
          double r = x[j] - (other ? BIMODAL_HIGH : 0) - m;
          ss += r * r;
          lw += Math.log(outliers ? 0.95 : other ? 0.3 : 0.7) - 0.5 * Math.log(2 * Math.PI * sigma2);
        }
      }
      int kept = outliers ? normal : n;
      mean[a] = m;
      var[a] = sigma2 / kept;
      logWeight[a] = lw - ss / (2 * sigma2) + 0.5 * Math.log(2 * Math.PI * var[a]);
      max = Math.max(max, logWeight[a]);
    }
    double total = 0;
    double first = 0;
    double second = 0;
    for (int a = 0; a < 1 << n; a++) {
      double w = Math.exp(logWeight[a] - max);
      total += w;
      first += w * mean[a];
      second += w * (var[a] + mean[a] * mean[a]);
    }
    double m = first / total;
    return new double[] {m, second / total - m * m};
  }

  /** The density of the log of an outlier's factor (uniform 1.5..3 times a 1 % normal), per unit of log. */
  static double outlierLogDensity(double r) {
    double sum = 0;
    int steps = 30;
    for (int i = 0; i < steps; i++) {
      double u = 1.5 + 1.5 * (i + 0.5) / steps;
      sum += normal(r - Math.log(u), SAMPLE_SD * SAMPLE_SD) / steps;
    }
    return Math.log(sum + 1e-300);
  }

  /**
   * Session shifts: each version's chance of a shifted session (its level minus the fitted level of the likeliest
   * steps, under the shift's uniform ratio against the session's normal), three rounds; a version's variance is
   * divided by its chance of being unshifted.
   */
  static Posterior sessionShifts(SegmentModel model, double[] level, double[] variance) {
    int n = level.length;
    double[] v = variance.clone();
    Posterior p = model.judgeLevels(level, v, false);
    for (int round = 0; round < 3; round++) {
      double[] fit = fit(level, v, p);
      for (int k = 0; k < n; k++) {
        double r = level[k] - fit[k];
        double unshifted = (1 - SHIFT_SHARE) * normal(r, variance[k]);
        double shifted = 0;
        int steps = 25;
        for (int i = 0; i < steps; i++) {
          double u = SHIFT_LOW + (SHIFT_HIGH - SHIFT_LOW) * (i + 0.5) / steps;
          shifted += SHIFT_SHARE * normal(r - Math.log(u), variance[k]) / steps;
        }
        double q = shifted / (shifted + unshifted + 1e-300);
        v[k] = variance[k] / Math.max(1e-8, 1 - q);
      }
      p = model.judgeLevels(level, v, false);
    }
    return p;
  }

  /**
   * Each version's fitted level: the precision-weighted mean of its level between the likeliest steps of the claims
   * with probability of at least one half whose new level holds three versions.
   */
  static double[] fit(double[] level, double[] v, Posterior p) {
    int n = level.length;
    boolean[] cut = new boolean[n + 1];
    cut[0] = true;
    cut[n] = true;
    for (Claim c : p.claims()) {
      if (c.probability() >= 0.5 && c.likeliest() <= n - 3) {
        cut[c.likeliest()] = true;
      }
    }
    double[] fit = new double[n];
    int from = 0;
    for (int k = 1; k <= n; k++) {
      if (cut[k]) {
        double sum = 0;
        double weight = 0;
        for (int i = from; i < k; i++) {
          sum += level[i] / v[i];
          weight += 1 / v[i];
        }
        Arrays.fill(fit, from, k, sum / weight);
        from = k;
      }
    }
    return fit;
  }

  private static double normal(double r, double variance) {
    return Math.exp(-r * r / (2 * variance)) / Math.sqrt(2 * Math.PI * variance);
  }

  /** The variance of the family's level estimator from {@code samples} samples, by simulation (cached). */
  static synchronized double noise(NoiseFamily family, int samples) {
    if (family == NoiseFamily.ONE_VALUE) {
      return 0;
    }
    return NOISE.computeIfAbsent(family, f -> {
      Random random = new Random(f.ordinal());
      int draws = 40_000;
      double[] levels = new double[draws];
      for (int i = 0; i < draws; i++) {
        double[] x = new double[samples];
        for (int j = 0; j < samples; j++) {
          x[j] = Math.log(f.sample(random));
        }
        levels[i] = estimate(f, x);
      }
      double mean = Arrays.stream(levels).average().orElseThrow();
      return Arrays.stream(levels).map(l -> (l - mean) * (l - mean)).sum() / (draws - 1);
    });
  }
}
