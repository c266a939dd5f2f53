package org.perftrack.server.detection;

import org.perftrack.server.stats.MultipleTesting;
import org.perftrack.server.stats.Robust;
import org.perftrack.server.stats.StudentT;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two versions side by side (the table of seed 000, with statistics). Welch t on log samples, or a
 * paired t on per-pair log ratios when measured interleaved; a sample of 0 (a count that did not happen in a run)
 * has no log, so such a pair is tested on the samples themselves, with the between-session noise as the same share
 * of each side's level. The verdicts of one table are
 * corrected together (Benjamini-Hochberg at {@value #FDR}) since a table has many rows.
 */
public final class VersionComparer {
  static final double FDR = 0.05;
  static final int MIN_SAMPLES = 2;

  public ComparisonResult compare(Comparison c) {
    return compareAll(List.of(c)).get(0);
  }

  public List<ComparisonResult> compareAll(List<Comparison> rows) {
    double[] p = rows.stream().mapToDouble(VersionComparer::pValue).toArray();
    boolean[] significant = MultipleTesting.benjaminiHochberg(p, FDR);
    List<ComparisonResult> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      out.add(result(rows.get(i), p[i], significant[i]));
    }
    return out;
  }

  private static ComparisonResult result(Comparison c, double p, boolean significant) {
    double baseValue = Robust.trimmedMean(c.base());
    double headValue = Robust.trimmedMean(c.head());
    double ratio = headValue / baseValue;
    Verdict verdict;
    if (Double.isNaN(p)) {
      verdict = Verdict.INSUFFICIENT_DATA;
    } else if (headValue == baseValue) { // also 0 and 0, whose ratio has no value
      verdict = Verdict.UNCHANGED;
    } else if (Math.abs(Math.log(ratio)) < Math.log1p(c.minChange())) {
      verdict = Verdict.UNCHANGED;
    } else if (!significant) {
      verdict = Verdict.INCONCLUSIVE;
    } else {
      verdict = c.direction().isWorse(Math.log(ratio)) ? Verdict.REGRESSION : Verdict.IMPROVEMENT;
    }
    return new ComparisonResult(baseValue, headValue, ratio, p, verdict);
  }

  static double pValue(Comparison c) {
    double[] base = logs(c.base());
    double[] head = logs(c.head());
    boolean raw = false;
    if ((base == null || head == null) && nonNegative(c.base()) && nonNegative(c.head())) {
      base = c.base();
      head = c.head();
      raw = true;
    }
    if (base == null || head == null || base.length < MIN_SAMPLES || head.length < MIN_SAMPLES) {
      return Double.NaN;
    }
    if (c.paired() && base.length == head.length) {
      double[] d = new double[base.length];
      for (int i = 0; i < d.length; i++) {
        d[i] = head[i] - base[i];
      }
      double se = Math.sqrt(variance(d) / d.length);
      return p(mean(d), se, d.length - 1);
    }
    double vb = variance(base) / base.length;
    double vh = variance(head) / head.length;
    double se2 = vb + vh;
    double df = se2 * se2 / (vb * vb / (base.length - 1) + vh * vh / (head.length - 1));
    double noise2 = Double.isNaN(c.sessionNoise()) ? 0
        : raw ? c.sessionNoise() * c.sessionNoise() * (mean(base) * mean(base) + mean(head) * mean(head))
        : 2 * c.sessionNoise() * c.sessionNoise();
    if (noise2 > se2) {
      se2 = noise2;
    }
    return p(mean(head) - mean(base), Math.sqrt(se2), df);
  }

  private static double p(double diff, double se, double df) {
    if (se == 0) {
      return diff == 0 ? 1 : 0;
    }
    return StudentT.twoSidedP(diff / se, Double.isNaN(df) || df < 1 ? 1 : df);
  }

  private static double[] logs(double[] samples) {
    double[] out = new double[samples.length];
    for (int i = 0; i < samples.length; i++) {
      if (!(samples[i] > 0)) {
        return null;
      }
      out[i] = Math.log(samples[i]);
    }
    return out;
  }

  private static boolean nonNegative(double[] samples) {
    return Arrays.stream(samples).allMatch(x -> x >= 0 && Double.isFinite(x));
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).average().orElse(Double.NaN);
  }

  private static double variance(double[] v) {
    double m = mean(v);
    return Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1);
  }
}
