package org.perftrack.server.lab;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.perftrack.server.stats.Robust;
import org.perftrack.wire.VersionKey;

/**
 * The arithmetic of a bisection, free of the database. A round measures the middle version M in one
 * interleaved batch with the baseline B and the regressed version V, so M is judged against B and V
 * of the same session (the batch's pairing, as detection judges interleaved batches): where does M's
 * median lie on the log scale between B's and V's? Near B it is good, near V it is bad, in the middle
 * third (or when the batch does not show the step at all) the round is ambiguous.
 */
final class BisectionJudge {

  enum Verdict { GOOD, BAD, AMBIGUOUS }

  /** Below this B→V change in the round's own batch, the batch cannot place M. */
  static final double MIN_STEP = Math.log(1.05);
  static final double GOOD_BELOW = 1.0 / 3;
  static final double BAD_ABOVE = 2.0 / 3;

  /** The samples of one affected series in one round. */
  record SeriesSamples(double[] baseline, double[] middle, double[] version) {}

  private BisectionJudge() {}

  /** Where M lies between B (0) and V (1), averaged over the series that show the step; NaN when none does. */
  static double position(Collection<SeriesSamples> series) {
    double sum = 0;
    int n = 0;
    for (SeriesSamples s : series) {
      if (s.baseline().length == 0 || s.middle().length == 0 || s.version().length == 0) {
        continue;
      }
      double b = Math.log(Robust.median(s.baseline()));
      double step = Math.log(Robust.median(s.version())) - b;
      if (Math.abs(step) < MIN_STEP || !Double.isFinite(step)) {
        continue;
      }
      sum += Math.max(-0.5, Math.min(1.5, (Math.log(Robust.median(s.middle())) - b) / step));
      n++;
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  static Verdict verdict(double position) {
    if (Double.isNaN(position)) {
      return Verdict.AMBIGUOUS;
    }
    return position < GOOD_BELOW ? Verdict.GOOD : position > BAD_ABOVE ? Verdict.BAD : Verdict.AMBIGUOUS;
  }

  /** A second ambiguous round must decide: the nearer end wins (a middle exactly half way counts as bad). */
  static Verdict forced(double position) {
    return Double.isNaN(position) || position >= 0.5 ? Verdict.BAD : Verdict.GOOD;
  }

  /** The offered versions strictly between {@code low} and {@code high}, in version order. */
  static List<String> between(Collection<String> offered, String low, String high) {
    String lowKey = VersionKey.of(low);
    String highKey = VersionKey.of(high);
    return offered.stream().distinct()
        .filter(v -> VersionKey.of(v).compareTo(lowKey) > 0 && VersionKey.of(v).compareTo(highKey) < 0)
        .sorted(Comparator.comparing(VersionKey::of)).toList();
  }

  /** The version a round measures: the lower middle, so k versions in between take at most ⌈log₂(k+1)⌉ rounds. */
  static String middle(List<String> between) {
    return between.get((between.size() - 1) / 2);
  }

}
