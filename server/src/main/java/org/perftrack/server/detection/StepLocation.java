package org.perftrack.server.detection;

import java.util.List;

import org.perftrack.server.stats.Robust;

/**
 * How sure the levels are that a step starts at the version a scan named and not at a neighbour. A step of a
 * few times the noise is often found one version early or late, and a step at the wrong version blames the wrong
 * change (and its true version goes unreported); such a step waits until later versions place it.
 *
 * <p>The splits within {@value #RADIUS} versions of the named one are compared by their likelihood: each side of
 * a split is one level (a Huber M-estimate, so one unusual session neither moves it nor decides the place), the
 * loss is Huber's ({@value #HUBER} × the between-session noise), and the sides reach to the neighbouring decided
 * steps or the window. The named version must hold {@value #SHARE} of the likelihood of those splits.
 */
final class StepLocation {
  /** How far on each side of the named version the other splits are tried. */
  static final int RADIUS = 3;
  /** The share of the likelihood the named version must hold. */
  static final double SHARE = 0.6;
  /** Residuals beyond this many times the noise count linearly (one bad session is not a step's place). */
  static final double HUBER = 1.5;

  private StepLocation() {
  }

  /** Whether {@code at} holds {@value #SHARE} of the likelihood among the splits near it. */
  static boolean placed(double[] x, int at, List<Integer> decided, double sigma, int window) {
    return share(x, at, decided, sigma, window) >= SHARE;
  }

  /**
   * The share of the likelihood that the step starts at {@code at} rather than at another version within
   * {@value #RADIUS} of it, the sides bounded by the decided steps around it and by {@code window} versions.
   */
  static double share(double[] x, int at, List<Integer> decided, double sigma, int window) {
    int from = Math.max(0, at - window);
    int to = Math.min(x.length, at + window);
    for (int d : decided) {
      if (d < at && d > from) {
        from = d;
      }
      if (d > at && d < to) {
        to = d;
      }
    }
    double scale = Math.max(sigma, NoiseModel.SIGMA_FLOOR);
    double[] costs = new double[2 * RADIUS + 1];
    double least = Double.MAX_VALUE;
    for (int k = at - RADIUS; k <= at + RADIUS; k++) {
      double cost = k <= from || k >= to ? Double.NaN : loss(x, from, k, scale) + loss(x, k, to, scale);
      costs[k - at + RADIUS] = cost;
      if (cost < least) {
        least = cost;
      }
    }
    double total = 0;
    for (double c : costs) {
      if (!Double.isNaN(c)) {
        total += Math.exp(least - c);
      }
    }
    return Math.exp(least - costs[RADIUS]) / total;
  }

  /** Huber loss of {@code x[from, to)} around its Huber M-estimate (a few reweighting steps from the median). */
  private static double loss(double[] x, int from, int to, double scale) {
    double center = Robust.median(x, from, to);
    for (int iteration = 0; iteration < 4; iteration++) {
      double sum = 0;
      double weights = 0;
      for (int i = from; i < to; i++) {
        double r = Math.abs(x[i] - center) / scale;
        double w = r <= HUBER ? 1 : HUBER / r;
        sum += w * x[i];
        weights += w;
      }
      center = sum / weights;
    }
    double loss = 0;
    for (int i = from; i < to; i++) {
      double r = Math.abs(x[i] - center) / scale;
      loss += r <= HUBER ? r * r / 2 : HUBER * r - HUBER * HUBER / 2;
    }
    return loss;
  }
}
