package org.perftrack.server.changepoint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The claim rule on a segment's step mass: at the version with the most mass of a step of at least min-change, one
 * version when it holds the claim probability, else the narrowest run around it (of at most {@code widest} versions,
 * {@link #WIDEST} unless said) whose mass holds it, else the widest run with the most such mass; then the next peak
 * outside it, at most {@link #PEAKS} peaks.
 */
final class Claims {
  static final int WIDEST = 4;
  static final int PEAKS = 3;
  /** Peaks with less mass of a large enough step are not candidates. */
  static final double LEAST = 0.01;

  private Claims() {
  }

  static Posterior of(StepMass m, double claimProbability, int widest) {
    boolean[] taken = new boolean[m.n];
    taken[0] = true;
    List<Claim> claims = new ArrayList<>();
    for (int peak = 0; peak < PEAKS; peak++) {
      int at = -1;
      for (int k = 1; k < m.n; k++) {
        if (!taken[k] && (at < 0 || Math.max(m.up[k], m.down[k]) > Math.max(m.up[at], m.down[at]))) {
          at = k;
        }
      }
      if (at < 0 || Math.max(m.up[at], m.down[at]) < LEAST) {
        break;
      }
      boolean up = m.up[at] >= m.down[at];
      double[] big = up ? m.up : m.down;
      int first = at;
      int last = at;
      for (int width = 2; width <= widest && probability(m, big, first, last) < claimProbability; width++) {
        double most = -1;
        for (int a = Math.max(1, at - width + 1); a <= at && a + width - 1 < m.n; a++) {
          double mass = free(taken, a, a + width - 1) ? sum(big, a, a + width - 1) : -1;
          if (mass > most + 1e-12) {
            most = mass;
            first = a;
            last = a + width - 1;
          }
        }
      }
      double p = probability(m, big, first, last);
      int likeliest = first;
      for (int k = first; k <= last; k++) {
        likeliest = big[k] > big[likeliest] ? k : likeliest;
      }
      claims.add(new Claim(first, last, likeliest, up, Math.exp(m.shift[likeliest]), p, p >= claimProbability));
      for (int k = Math.max(1, first - 1); k <= Math.min(m.n - 1, last + 1); k++) {
        taken[k] = true;
      }
    }
    claims.sort(Comparator.comparingInt(Claim::first));
    return new Posterior(List.copyOf(claims), m.any.clone(), m.none, m.two);
  }

  /** P(a large step this way inside first..last) / (that + P(no step inside)). */
  static double probability(StepMass m, double[] big, int first, int last) {
    double inside = Math.min(1, sum(big, first, last));
    double nothing = Math.max(0, 1 - sum(m.any, first, last));
    return inside / (inside + nothing);
  }

  private static boolean free(boolean[] taken, int first, int last) {
    for (int k = first; k <= last; k++) {
      if (taken[k] && k != 0) {
        return false;
      }
    }
    return true;
  }

  private static double sum(double[] x, int first, int last) {
    double s = 0;
    for (int k = first; k <= last; k++) {
      s += x[k];
    }
    return s;
  }
}
