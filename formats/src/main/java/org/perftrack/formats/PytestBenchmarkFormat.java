package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * pytest-benchmark's {@code --benchmark-json}: each round's time per iteration ({@code stats.data}, seconds)
 * is a sample; the benchmark is its {@code fullname} ({@code tests/test_x.py::test_y[param]}). Files saved
 * with {@code --benchmark-autosave} lack the raw data unless {@code --benchmark-save-data} is given: their
 * statistics (rounds, mean, stddev, min, median, max) become a summary-only result, which the server keeps
 * and shows as such and detection weighs less than raw samples; the run's note says so.
 * {@code machine_info} and {@code commit_info} become run attributes; the numbers a test puts in
 * {@code extra_info} become secondary metrics {@code extra:KEY} of one sample each.
 */
final class PytestBenchmarkFormat extends JsonFormat {

  static final String NAME = "pytest-benchmark";

  PytestBenchmarkFormat() {
    super(NAME, "an object with \"benchmarks\" and \"machine_info\" (pytest --benchmark-json)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    JsonNode benchmarks = root.get("benchmarks");
    for (int i = 0; i < benchmarks.size(); i++) {
      addBenchmark(run, benchmarks.get(i), "benchmarks[" + i + "]");
    }
    if (benchmarks.valueStream().anyMatch(b -> !b.path("stats").has("data"))) {
      run.note("no raw timings (an autosave without --benchmark-save-data): summary statistics only, which"
          + " detection weighs less than samples");
    }
    run.startedAt(JsonInput.instant(root.get("datetime"), true)); // utcnow().isoformat(): UTC without an offset
    run.attribute("pytest-benchmark.version", root.path("version").asText(""));
    describe(run, "machine_info", root.path("machine_info"));
    describe(run, "commit_info", root.path("commit_info"));
  }

  private static Double optional(JsonNode stats, String field, String source, String path) throws FormatException {
    return stats.hasNonNull(field) ? JsonInput.number(stats.get(field), source, path + field) : null;
  }

  private static void addBenchmark(ForeignRun run, JsonNode benchmark, String at) throws FormatException {
    String source = run.source();
    JsonNode nameNode = benchmark.hasNonNull("fullname") ? benchmark.get("fullname") : benchmark.get("name");
    String name = JsonInput.text(nameNode, source, at + ".fullname");
    JsonNode stats = JsonInput.requireObject(benchmark.get("stats"), source, at + ".stats");
    if (stats.has("data")) {
      run.add(name, "time", "s", LOWER_IS_BETTER, JsonInput.numbers(stats.get("data"), source, at + ".stats.data"));
    } else {
      String path = at + ".stats.";
      int rounds = (int) JsonInput.number(stats.get("rounds"), source, path + "rounds");
      run.addSummary(name, "time", "s", LOWER_IS_BETTER, new ForeignRun.Stats(rounds,
          JsonInput.number(stats.get("mean"), source, path + "mean"), optional(stats, "stddev", source, path),
          optional(stats, "min", source, path), optional(stats, "median", source, path),
          optional(stats, "max", source, path)));
    }
    for (Map.Entry<String, JsonNode> extra : benchmark.path("extra_info").properties()) {
      JsonNode value = extra.getValue();
      if (value.isNumber() && Double.isFinite(value.doubleValue())) {
        run.add(name, "extra:" + extra.getKey(), EXTRA_UNIT, LOWER_IS_BETTER, Text.list(value.doubleValue()));
      }
    }
  }

  /** extra_info values say nothing of their unit. */
  static final String EXTRA_UNIT = "1";

  /** Scalar fields, plus the scalars of one nested level (machine_info.cpu.brand_raw). */
  private static void describe(ForeignRun run, String prefix, JsonNode info) {
    for (Map.Entry<String, JsonNode> field : info.properties()) {
      JsonNode value = field.getValue();
      if (value.isValueNode() && !value.isNull()) {
        run.attribute(prefix + "." + field.getKey(), value.asText());
      } else if (value.isObject()) {
        for (Map.Entry<String, JsonNode> inner : value.properties()) {
          if (inner.getValue().isValueNode() && !inner.getValue().isNull()) {
            run.attribute(prefix + "." + field.getKey() + "." + inner.getKey(), inner.getValue().asText());
          }
        }
      }
    }
  }
}
