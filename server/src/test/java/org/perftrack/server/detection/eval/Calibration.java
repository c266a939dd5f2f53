package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.perftrack.server.changepoint.Claim;

/**
 * Claimed against realised precision: every candidate of the model (claimed or not) in bins of its probability,
 * and how many of them hold a labeled step of their kind within their versions.
 */
final class Calibration {
  static final double[] BINS = {0.5, 0.9, 0.97, 0.99, 1.0001};
  final int[] candidates = new int[BINS.length - 1];
  final int[] right = new int[BINS.length - 1];
  final double[] claimed = new double[BINS.length - 1];

  void add(LabeledSeries s, List<Claim> claims) {
    List<Detected> found = BayesMethod.detected(s, claims);
    for (int i = 0; i < claims.size(); i++) {
      double p = claims.get(i).probability();
      for (int b = 0; b + 1 < BINS.length; b++) {
        if (p >= BINS[b] && p < BINS[b + 1]) {
          Detected d = found.get(i);
          candidates[b]++;
          claimed[b] += p;
          right[b] += s.labels().stream().anyMatch(l -> l.kind() == d.kind() && l.index() >= d.first()
              && l.index() <= d.last()) ? 1 : 0;
        }
      }
    }
  }

  void merge(Calibration o) {
    for (int b = 0; b < candidates.length; b++) {
      candidates[b] += o.candidates[b];
      right[b] += o.right[b];
      claimed[b] += o.claimed[b];
    }
  }

  void print(PrintStream out, String name) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "       %-18s", name));
    for (int b = 0; b < candidates.length; b++) {
      line.append(String.format(Locale.ROOT, "  [%.2f,%.2f) %d: claimed %.3f realised %.3f", BINS[b],
          Math.min(1, BINS[b + 1]), candidates[b], candidates[b] == 0 ? 0 : claimed[b] / candidates[b],
          candidates[b] == 0 ? 0 : right[b] / (double) candidates[b]));
    }
    out.println(line);
  }
}
