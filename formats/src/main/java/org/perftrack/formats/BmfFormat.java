package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Bencher Metric Format: {@code {"BENCHMARK": {"MEASURE": {"value": …, "lower_value": …, "upper_value": …}}}}.
 * Each measure is one metric with one sample ({@code value}; the bounds are an interval, not samples). BMF
 * carries neither unit nor direction: Bencher's built-in measures get theirs ({@code latency} ns,
 * {@code throughput} ops/s higher is better, {@code file-size} B, {@code build-time} s, instruction and cache
 * counts); any other measure is unit {@code 1}, lower is better, and the run's note names it.
 */
final class BmfFormat extends JsonFormat {

  static final String NAME = "bmf";

  private static final class Measure {
    private final String unit;
    private final String direction;

    Measure(String unit, String direction) {
      this.unit = unit;
      this.direction = direction;
    }

    String unit() {
      return unit;
    }

    String direction() {
      return direction;
    }
  }

  private static final Map<String, Measure> BUILT_IN = Text.map(
      "latency", new Measure("ns", LOWER_IS_BETTER),
      "throughput", new Measure("ops/s", HIGHER_IS_BETTER),
      "file-size", new Measure("B", LOWER_IS_BETTER),
      "build-time", new Measure("s", LOWER_IS_BETTER),
      "instructions", new Measure("1", LOWER_IS_BETTER),
      "cycles", new Measure("1", LOWER_IS_BETTER),
      "estimated-cycles", new Measure("1", LOWER_IS_BETTER),
      "l1-accesses", new Measure("1", LOWER_IS_BETTER),
      "l2-accesses", new Measure("1", LOWER_IS_BETTER),
      "ram-accesses", new Measure("1", LOWER_IS_BETTER),
      "total-accesses", new Measure("1", LOWER_IS_BETTER));

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
        run.add(benchmark.getKey(), measure.getKey(), known.unit(), known.direction(), Text.list(value));
      }
    }
    if (!unknown.isEmpty()) {
      run.note("measures without a known unit or direction (unit 1, lower is better): " + String.join(", ", unknown));
    }
  }
}
