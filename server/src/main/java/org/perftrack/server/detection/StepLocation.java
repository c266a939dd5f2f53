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
 * steps or the window. Either the named version holds {@value #SHARE} of the likelihood of those splits, or
 * a run of at most {@value #MAX_SUSPECTS} consecutive versions holds {@value #MASS} of it: the step is reported
 * with those versions as its suspects and the likeliest as its version.
 */
final class StepLocation {
  /** How far on each side of the named version the other splits are tried. */
  static final int RADIUS = 3;
  /** The share of the likelihood the named version must hold. */
  static final double SHARE = 0.6;
  /** Residuals beyond this many times the noise count linearly (one bad session is not a step's place). */
  static final double HUBER = 1.5;
  /** The share of the likelihood of a step's place its suspect versions hold together. */
  static final double MASS = 0.9;
  /** A step whose suspects are more versions than this (and whose likeliest holds less than {@link #SHARE}) waits. */
  static final int MAX_SUSPECTS = 4;

  private StepLocation() {
  }

  /**
   * The smallest run of consecutive versions holding {@value #MASS} of the likelihood of the splits within
   * {@value #RADIUS} versions of the named one (sides bounded as in {@link #share}), with the likeliest of them;
   * null when that run is wider than {@value #MAX_SUSPECTS} versions and the named version holds less than
   * {@value #SHARE}: such a step waits for later versions to place it.
   */
  static Suspects suspects(double[] x, int at, List<Integer> decided, double sigma, int window) {
    return suspects(x, at, decided, sigma, window, MAX_SUSPECTS);
  }

  /** As above, with at most {@code maxSuspects} versions. */
  static Suspects suspects(double[] x, int at, List<Integer> decided, double sigma, int window, int maxSuspects) {
    double[] likelihood = likelihoods(x, at, decided, sigma, window);
    Suspects s = Suspects.of(likelihood, at - RADIUS);
    return s.width() <= maxSuspects || likelihood[RADIUS] >= SHARE ? s : null;
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
    return likelihoods(x, at, decided, sigma, window)[RADIUS];
  }

  /** The likelihood shares of the splits {@code at - RADIUS .. at + RADIUS} (0 where a split is not possible). */
  private static double[] likelihoods(double[] x, int at, List<Integer> decided, double sigma, int window) {
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
    double[] likelihood = new double[costs.length];
    for (int i = 0; i < costs.length; i++) {
      likelihood[i] = Double.isNaN(costs[i]) ? 0 : Math.exp(least - costs[i]);
      total += likelihood[i];
    }
    for (int i = 0; i < likelihood.length; i++) {
      likelihood[i] /= total;
    }
    return likelihood;
  }

  /**
   * Where a step may start: versions {@code first..last} (indexes, inclusive) hold {@value #MASS} of the
   * likelihood of its place, {@code best} the likeliest.
   */
  record Suspects(int first, int best, int last) {
    int width() {
      return last - first + 1;
    }

    /** One version, exactly placed. */
    static Suspects at(int index) {
      return new Suspects(index, index, index);
    }

    /** The run covering both. */
    Suspects union(Suspects o) {
      return new Suspects(Math.min(first, o.first), best, Math.max(last, o.last));
    }

    /**
     * The smallest run of consecutive entries of {@code likelihood} (shares summing to 1) holding {@value #MASS}
     * of it and its likeliest entry; of runs as short, the one holding most. Indexes are offset by {@code offset}.
     */
    static Suspects of(double[] likelihood, int offset) {
      int mode = 0;
      for (int i = 1; i < likelihood.length; i++) {
        if (likelihood[i] > likelihood[mode]) {
          mode = i;
        }
      }
      for (int width = 1; width <= likelihood.length; width++) {
        int bestStart = -1;
        double bestMass = 0;
        for (int start = Math.max(0, mode - width + 1); start <= mode && start + width <= likelihood.length; start++) {
          double mass = 0;
          for (int i = start; i < start + width; i++) {
            mass += likelihood[i];
          }
          if (mass >= MASS - 1e-12 && mass > bestMass) {
            bestMass = mass;
            bestStart = start;
          }
        }
        if (bestStart >= 0) {
          return new Suspects(offset + bestStart, offset + mode, offset + bestStart + width - 1);
        }
      }
      return new Suspects(offset, offset + mode, offset + likelihood.length - 1);
    }
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
