package org.perftrack.agent.suite;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.perftrack.wire.Quantities;

/**
 * The short per-target summary printed after a session: median, spread and failures, and a warning for each
 * benchmark whose samples vary too much for its median to be trusted.
 */
public final class ResultTable {

  /**
   * Samples whose coefficient of variation is above this are too noisy to trust, unless the config's
   * {@code noisyCv} or {@code run --noisy-cv} says otherwise (10%).
   */
  public static final double NOISY_CV = 0.10;

  private ResultTable() {}

  public static void print(PrintWriter out, Measurements m) {
    print(out, m, NOISY_CV);
  }

  /** @param noisyCv the coefficient of variation (0.1 = 10%) above which a benchmark is flagged NOISY */
  public static void print(PrintWriter out, Measurements m, double noisyCv) {
    String name = m.target().target().name();
    String version = m.target().target().version();
    out.printf("%n%s%n", name.equals(version) ? version : name + " (version " + version + ")");
    out.printf(Locale.ROOT, "  %-16s %12s %-5s %12s %12s %7s%n", "benchmark", "median", "unit", "min", "max", "cv");
    m.samples().forEach((b, samples) -> {
      double[] v = samples.stream().mapToDouble(Sample::value).sorted().toArray();
      // the row's numbers in the one unit it names: 3180 MB/s reads 3.18 GB/s
      Quantities.Scale in = Quantities.scale(b.unit(), v[0], v[v.length - 1]);
      out.printf(Locale.ROOT, "  %-16s %12s %-5s %12s %12s %6.2f%%%n", b.name(), in.number(median(v)), Quantities.ascii(in.unit()),
          in.number(v[0]), in.number(v[v.length - 1]), 100 * cv(v));
    });
    m.failures().forEach((benchmark, message) -> out.printf("  %-16s FAILED: %s%n", benchmark, message));
    int noisy = 0;
    int repetitions = 10;
    for (Map.Entry<Benchmark, List<Sample>> e : m.samples().entrySet()) {
      double cv = cv(e.getValue().stream().mapToDouble(Sample::value).toArray());
      if (cv > noisyCv) {
        out.printf("  NOISY %s: its samples vary by %s (cv, above %s)%n", e.getKey().name(), Quantities.percent(cv),
            Quantities.number(100 * noisyCv) + "%");
        noisy++;
        repetitions = Math.max(repetitions, 2 * e.getValue().size());
      }
    }
    if (noisy > 0) { // what to do, once for all of them
      out.printf("  %s too noisy to trust: measure again with more repetitions (--repetitions %d) or on a quieter "
          + "machine (nothing else running, no virus scan, a fixed CPU frequency)%n",
          noisy == 1 ? "its median is" : "their medians are", repetitions);
    }
    out.flush();
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Coefficient of variation: sample standard deviation over mean. */
  public static double cv(double[] values) {
    if (values.length < 2) {
      return 0;
    }
    double mean = Arrays.stream(values).average().orElse(0);
    double ss = Arrays.stream(values).map(x -> (x - mean) * (x - mean)).sum();
    return Math.sqrt(ss / (values.length - 1)) / mean;
  }
}
