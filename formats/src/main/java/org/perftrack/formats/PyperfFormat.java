package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * pyperf's JSON ({@code -o FILE}, {@code pyperf timeit … -o}, pyperformance): a suite of benchmarks, each with
 * its runs; every value of every run is a sample (pyperf already divides by the loops). Warm-up values and
 * calibration runs (no {@code values}) are left out. The name is the benchmark's {@code metadata.name}; the
 * unit is its {@code metadata.unit} or the suite's ({@code second} → s, {@code byte} → B, {@code integer} → 1).
 * The suite's common metadata (Python version, CPU, hostname…) become run attributes {@code pyperf.KEY}.
 */
final class PyperfFormat extends JsonFormat {

  static final String NAME = "pyperf";

  private static final Map<String, String> UNITS = Text.map("second", "s", "byte", "B", "integer", "1");

  PyperfFormat() {
    super(NAME, "an object with \"benchmarks\", each with \"runs\" (pyperf -o FILE)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    JsonNode common = root.path("metadata");
    JsonNode benchmarks = root.get("benchmarks");
    for (int i = 0; i < benchmarks.size(); i++) {
      addBenchmark(run, benchmarks.get(i), common, "benchmarks[" + i + "]");
    }
    run.attribute("pyperf.version", root.path("version").asText(""));
    for (Map.Entry<String, JsonNode> field : common.properties()) {
      if (field.getValue().isValueNode() && !field.getKey().equals("name")) {
        run.attribute("pyperf." + field.getKey(), field.getValue().asText());
      }
    }
  }

  private static void addBenchmark(ForeignRun run, JsonNode benchmark, JsonNode common, String at)
      throws FormatException {
    String source = run.source();
    JsonNode metadata = benchmark.path("metadata");
    JsonNode nameNode = metadata.has("name") ? metadata.get("name") : common.get("name");
    String name = JsonInput.text(nameNode, source, at + ".metadata.name");
    String unitName = metadata.path("unit").asText(common.path("unit").asText("second"));
    String unit = UNITS.get(unitName);
    if (unit == null) {
      throw new FormatException(source + ": " + at + ".metadata.unit is '" + unitName + "', expected second, byte or integer");
    }
    JsonNode runs = JsonInput.requireArray(benchmark.get("runs"), source, at + ".runs");
    List<Double> samples = new ArrayList<>();
    for (int r = 0; r < runs.size(); r++) {
      if (runs.get(r).has("values")) {
        samples.addAll(JsonInput.numbers(runs.get(r).get("values"), source, at + ".runs[" + r + "].values"));
      }
    }
    if (samples.isEmpty()) {
      run.fail(name, "no values: only calibration or warm-up runs");
      return;
    }
    run.add(name, unit.equals("s") ? "time" : unit.equals("B") ? "memory" : "value", unit, LOWER_IS_BETTER, samples);
  }
}
