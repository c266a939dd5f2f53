package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perftrack.server.stats.Robust;

/** The sliding window medians of the quick first pass are exactly the medians of sorting each window. */
class StepScanTest {

  @Test
  void slidingWindowMediansAreTheSortedWindowsMedians() {
    Random random = new Random(11);
    double[] pool = {0.0, -0.0, 1.5, 1.5, -2.25, Double.NaN, Double.POSITIVE_INFINITY, 3.0};
    for (int round = 0; round < 500; round++) {
      int n = 2 + random.nextInt(40);
      int window = 2 + random.nextInt(14);
      double[] x = new double[n];
      for (int i = 0; i < n; i++) {
        // ties, signed zeros and the odd NaN or infinity among ordinary values
        x[i] = random.nextInt(4) == 0 ? pool[random.nextInt(pool.length)] : Math.round(random.nextGaussian() * 8) / 4.0;
      }
      int s = random.nextInt(n - 1);
      int e = s + 2 + random.nextInt(n - s - 1);
      double sigma = 0.01 + random.nextDouble();
      StepScan.Candidate[] quick = new StepScan(x, sigma, window, 0.01).quickCandidates(s, e);
      assertThat(quick).hasSize(e - s - 1);
      for (int k = s + 1; k < e; k++) {
        // the first pass as it was written before: copy and sort both windows at every k
        int from = Math.max(s, k - window);
        int to = Math.min(e, k + window);
        double shift = Robust.median(x, k, to) - Robust.median(x, from, k);
        double se = sigma * Math.sqrt(StepScan.MEDIAN_VARIANCE * (1.0 / (k - from) + 1.0 / (to - k)));
        StepScan.Candidate c = quick[k - s - 1];
        assertThat(c.index()).isEqualTo(k);
        assertThat(c.beforeFrom()).isEqualTo(from);
        assertThat(c.afterTo()).isEqualTo(to);
        assertThat(Double.doubleToRawLongBits(c.shift())).as("shift at %d of %s", k, java.util.Arrays.toString(x))
            .isEqualTo(Double.doubleToRawLongBits(shift));
        assertThat(Double.doubleToRawLongBits(c.t())).isEqualTo(Double.doubleToRawLongBits(shift / se));
      }
    }
  }
}
