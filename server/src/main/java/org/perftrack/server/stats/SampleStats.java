package org.perftrack.server.stats;

import java.util.Arrays;

/**
 * The summary of a result's raw samples. It is derived when read, not stored: a stored result keeps its
 * statistics only when it has no samples (the tool wrote only a summary).
 */
public record SampleStats(int n, double min, double median, double mean, double max) {

  /** Of one result's samples (at least one). */
  public static SampleStats of(double[] samples) {
    double[] s = samples.clone();
    Arrays.sort(s);
    int n = s.length;
    double median = Robust.sortedMedian(s, n);
    return new SampleStats(n, s[0], median, Arrays.stream(s).sum() / n, s[n - 1]);
  }
}
