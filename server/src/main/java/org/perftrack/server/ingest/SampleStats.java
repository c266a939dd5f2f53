package org.perftrack.server.ingest;

import java.util.Arrays;
import java.util.List;
import org.perftrack.server.stats.Robust;

/** The summary stored beside raw samples, so that pages need not unpack arrays. */
record SampleStats(int n, double min, double median, double mean, double max) {

  static SampleStats of(List<Double> samples) {
    double[] s = samples.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(s);
    int n = s.length;
    double median = Robust.sortedMedian(s, n);
    return new SampleStats(n, s[0], median, Arrays.stream(s).sum() / n, s[n - 1]);
  }
}
