package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Bencher Metric Format: {@code {"BENCHMARK": {"MEASURE": {"value": …, "lower_value": …, "upper_value": …}}}}.
 * Each measure is one metric with one sample ({@code value}; the bounds are an interval, not samples). BMF
 * carries neither unit nor direction: Bencher's built-in measures get theirs ({@code latency} ns,
 * {@code throughput} ops/s higher is better, {@code file-size} B, {@code build-time} s, instruction and cache
 * counts); any other measure is unit {@code 1}, lower is better, and the run's note names it.
 */
final class BmfFormat extends JsonFormat {

  static final String NAME = "bmf";

  private record Measure(String unit, String direction) {}

  private static final Map<String, Measure> BUILT_IN = Map.ofEntries(
      Map.entry("latency", new Measure("ns", LOWER_IS_BETTER)),
      Map.entry("throughput", new Measure("ops/s", HIGHER_IS_BETTER)),
      Map.entry("file-size", new Measure("B", LOWER_IS_BETTER)),
      Map.entry("build-time", new Measure("s", LOWER_IS_BETTER)),
      Map.entry("instructions", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("cycles", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("estimated-cycles", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("l1-accesses", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("l2-accesses", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("ram-accesses", new Measure("1", LOWER_IS_BETTER)),
      Map.entry("total-accesses", new Measure("1", LOWER_IS_BETTER)));

  BmfFormat() {
    super(NAME, "an object of benchmarks, each an object of measures with a \"value\" (Bencher Metric Format)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    TreeSet<String> unknown = new TreeSet<>();
    for (Map.Entry<String, JsonNode> benchmark : root.properties()) {
      String at = benchmark.getKey();
      JsonInput.requireObject(benchmark.getValue(), sourceName, at);
      for (Map.Entry<String, JsonNode> measure : benchmark.getValue().properties()) {
        String path = at + "." + measure.getKey();
        JsonInput.requireObject(measure.getValue(), sourceName, path);
        double value = JsonInput.number(measure.getValue().get("value"), sourceName, path + ".value");
        Measure known = BUILT_IN.get(measure.getKey());
        if (known == null) {
          unknown.add(measure.getKey());
          known = new Measure("1", LOWER_IS_BETTER);
        }
        run.add(benchmark.getKey(), measure.getKey(), known.unit(), known.direction(), List.of(value));
      }
    }
    if (!unknown.isEmpty()) {
      run.note("measures without a known unit or direction (unit 1, lower is better): " + String.join(", ", unknown));
    }
  }
}
