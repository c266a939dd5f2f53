package org.perftrack.server.changepoint;

import java.util.Arrays;
import org.perftrack.server.stats.Robust;

/**
 * The model's entry point: a segment's runs in, its {@link Posterior} out (assumptions: the package comment).
 *
 * @param claimProbability what a claim's probability must reach ({@code perftrack.detection.claim-probability})
 * @param minChange the smallest relative change a claim is about ({@code perftrack.detection.min-change})
 * @param stepRate the prior probability of a step at each version ({@link StepRate})
 * @param widest the most versions a claim names when no fewer hold its probability
 */
public record SegmentModel(double claimProbability, double minChange, double stepRate, int widest) {
  public static final double CLAIM_PROBABILITY = 0.97;
  /** The prior share of outlier sessions (a version whose level is off its fit by any factor up to the range). */
  static final double OUTLIERS = 0.03;
  static final double OUTLIER_RANGE = 2;
  /** Rounds of widening outlier sessions' variances (each with the likeliest configuration judged again). */
  static final int ROUNDS = 2;
  /** The prior probability that a segment's levels drift (a slope per version, SD {@link StepMass#DRIFT}). */
  static final double DRIFTS = 0.01;
  /** The between-run variance's grid: 0, then these powers of two times the scatter's rough estimate. */
  static final double[] BETWEEN = {-6, -5, -4, -3, -2, -1, 0, 1};
  /** The grid's entry that is the rough estimate itself. */
  static final int ROUGH = 7;
  /** Rough SDs a version must lie beyond the levels both before and after it, the same way, to be a blip. */
  static final double BLIP = 4;

  public SegmentModel {
    if (!(claimProbability > 0 && claimProbability < 1) || !(minChange >= 0) || !(stepRate > 0 && stepRate < 1)
        || widest < 1) {
      throw new IllegalArgumentException("claimProbability " + claimProbability + ", minChange " + minChange
          + ", stepRate " + stepRate + ", widest " + widest);
    }
  }

  /** Claims of at most {@link Claims#WIDEST} versions. */
  public SegmentModel(double claimProbability, double minChange, double stepRate) {
    this(claimProbability, minChange, stepRate, Claims.WIDEST);
  }

  /** With the default claim probability and the rate of a product with no history. */
  public static SegmentModel of(double minChange) {
    return new SegmentModel(CLAIM_PROBABILITY, minChange, StepRate.initial());
  }

  public Posterior judge(Segment segment) {
    int n = segment.versions().size();
    if (n < 2) {
      return new Posterior(java.util.List.of(), new double[n], 1, 0);
    }
    RunLevels runs = RunLevels.of(segment);
    double[] between = betweenGrid(runs, n);
    double[] inflate = new double[n];
    Arrays.fill(inflate, 1);
    double[][] y = new double[between.length][n];
    double[][] v = new double[between.length][n];
    levels(runs, between, inflate, y, v);
    if (widenBlips(y[0], Math.sqrt(between[ROUGH]), inflate)) {
      levels(runs, between, inflate, y, v);
    }
    StepMass mass = StepMass.of(y, v, stepRate, minStep(), DRIFTS);
    for (int round = 0; round < ROUNDS && widenOutliers(mass, y, v, inflate); round++) {
      levels(runs, between, inflate, y, v);
      mass = StepMass.of(y, v, stepRate, minStep(), DRIFTS);
    }
    return Claims.of(mass, claimProbability, widest);
  }

  /**
   * Version levels and their variances known, and whether the levels drift (the oracle of the evaluation: the true
   * noise of each version).
   */
  public Posterior judgeLevels(double[] level, double[] variance, boolean drifts) {
    if (level.length < 2) {
      return new Posterior(java.util.List.of(), new double[level.length], 1, 0);
    }
    return Claims.of(StepMass.of(new double[][] {level}, new double[][] {variance}, stepRate, minStep(),
        drifts ? 1 : 0), claimProbability, widest);
  }

  double minStep() {
    return Math.log1p(minChange);
  }

  /** Each version's level and variance for every between-run variance of the grid (runs weighted by precision). */
  static void levels(RunLevels runs, double[] between, double[] inflate, double[][] y, double[][] v) {
    int n = inflate.length;
    for (int g = 0; g < between.length; g++) {
      double[] sum = new double[n];
      double[] weight = new double[n];
      for (int r = 0; r < runs.level.length; r++) {
        double w = 1 / (runs.within[r] + between[g] + 1e-12);
        sum[runs.version[r]] += w * runs.level[r];
        weight[runs.version[r]] += w;
      }
      for (int k = 0; k < n; k++) {
        y[g][k] = sum[k] / weight[k];
        v[g][k] = inflate[k] / weight[k];
      }
    }
  }

  /** 0 and multiples of the rough between-run variance that the scatter of consecutive version levels implies. */
  static double[] betweenGrid(RunLevels runs, int n) {
    double[] sum = new double[n];
    int[] count = new int[n];
    for (int r = 0; r < runs.level.length; r++) {
      sum[runs.version[r]] += runs.level[r];
      count[runs.version[r]]++;
    }
    double[] diff = new double[n - 1];
    for (int k = 1; k < n; k++) {
      diff[k - 1] = sum[k] / count[k] - sum[k - 1] / count[k - 1];
    }
    double sd = Robust.madSd(diff, 0, diff.length);
    double within = Arrays.stream(runs.within).average().orElse(0);
    double rough = Math.max(sd * sd / 2, Math.max(within, 1e-10));
    double[] grid = new double[BETWEEN.length + 1];
    for (int i = 0; i < BETWEEN.length; i++) {
      grid[i + 1] = rough * Math.pow(2, BETWEEN[i]);
    }
    return grid;
  }

  /**
   * Widens the variance of each version that lies beyond both the median of the (up to) 3 versions before it and of
   * the 2 or 3 after it, the same way, by more than {@link #BLIP} rough SDs: an outlier session, which neither level
   * explains (a step's first version matches the versions after it). Whether any was.
   */
  static boolean widenBlips(double[] level, double sd, double[] inflate) {
    boolean widened = false;
    for (int k = 1; k + 2 < level.length; k++) {
      double before = Robust.median(level, Math.max(0, k - 3), k);
      double after = Robust.median(level, k + 1, Math.min(level.length, k + 4));
      double off = Math.min(Math.abs(level[k] - before), Math.abs(level[k] - after)) / sd;
      if ((level[k] - before) * (level[k] - after) > 0 && off > BLIP) {
        inflate[k] *= off * off / 4;
        widened = true;
      }
    }
    return widened;
  }

  /**
   * Widens the variance of each version (but the newest) by its chance of being an outlier session given the
   * likeliest configuration's fitted levels: a mixture of the version's normal (share 1 - {@link #OUTLIERS}) and a
   * level anywhere within a factor {@link #OUTLIER_RANGE} of the fit; its variance is divided by its chance of being
   * normal. Whether any version's variance grew.
   */
  static boolean widenOutliers(StepMass mass, double[][] y, double[][] v, double[] inflate) {
    if (mass.bestDrifts) {
      return false;
    }
    double[] yy = y[mass.bestAlternative];
    double[] vv = v[mass.bestAlternative];
    int n = yy.length;
    int[] cuts = {0, mass.bestFirst < 0 ? n : mass.bestFirst, mass.bestSecond < 0 ? n : mass.bestSecond, n};
    double outlierDensity = OUTLIERS / (2 * Math.log(OUTLIER_RANGE));
    boolean widened = false;
    for (int s = 0; s + 1 < cuts.length; s++) {
      double sum = 0;
      double weight = 0;
      for (int k = cuts[s]; k < cuts[s + 1]; k++) {
        sum += yy[k] / vv[k];
        weight += 1 / vv[k];
      }
      for (int k = cuts[s]; k < cuts[s + 1] && k < n - 1; k++) {
        double base = vv[k] / inflate[k];
        double r = yy[k] - sum / weight;
        double normal = (1 - OUTLIERS) * Math.exp(-r * r / (2 * base)) / Math.sqrt(2 * Math.PI * base);
        double wider = 1 / Math.max(1e-6, normal / (normal + outlierDensity));
        if (wider > inflate[k] * 1.01) {
          inflate[k] = wider;
          widened = true;
        }
      }
    }
    return widened;
  }
}
