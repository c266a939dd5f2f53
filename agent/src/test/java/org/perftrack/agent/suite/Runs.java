package org.perftrack.agent.suite;

import java.util.Arrays;
import java.util.List;
import org.perftrack.formats.Json;
import org.perftrack.formats.RunUpload;

/** Reading what {@code run --dry-run} printed. */
public final class Runs {

  private Runs() {}

  public static List<RunUpload> parse(String json) {
    return Arrays.asList(Json.MAPPER.readValue(json, RunUpload[].class));
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
