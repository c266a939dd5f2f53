package org.perftrack.agent.suite;

import java.util.Arrays;
import java.util.List;
import org.perftrack.agent.upload.WireJson;
import org.perftrack.wire.RunUpload;

/** Reading what {@code run --dry-run} printed. */
public final class Runs {

  private Runs() {}

  public static List<RunUpload> parse(String json) {
    try {
      return Arrays.asList(WireJson.MAPPER.readValue(json, RunUpload[].class));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public static RunUpload ofVersion(List<RunUpload> runs, String version) {
    return runs.stream().filter(r -> r.version().equals(version)).findFirst().orElseThrow();
  }

  public static List<Double> samples(RunUpload run, String benchmark, String metric) {
    return run.results().stream()
        .filter(r -> r.benchmark().equals(benchmark) && r.metric().equals(metric))
        .findFirst().orElseThrow(() -> new AssertionError(benchmark + " " + metric + " missing in " + run.version()
            + "; failures: " + run.failures()))
        .samples();
  }

  public static double median(List<Double> samples) {
    double[] v = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return ResultTable.median(v);
  }
}
