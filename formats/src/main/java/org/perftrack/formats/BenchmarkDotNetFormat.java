package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * BenchmarkDotNet's JSON exporters ({@code *-report-full.json}, {@code *-report.json},
 * {@code *-report-brief.json}). Each benchmark is its {@code FullName} (before 0.11: namespace, type, method and
 * parameters), with its job when one method ran in several jobs. The samples of {@code time-per-op} (ns) are the
 * per-measurement results of the full report: the {@code Workload}/{@code Result} measurements (overhead already
 * subtracted), each {@code Nanoseconds / Operations}; a report without measurements gives
 * {@code Statistics.OriginalValues}, and failing those its statistics become a summary-only result.
 * {@code MemoryDiagnoser}'s allocated bytes per operation become {@code allocated-bytes-per-op} (B).
 */
final class BenchmarkDotNetFormat extends JsonFormat {

  static final String NAME = "benchmarkdotnet";

  BenchmarkDotNetFormat() {
    super(NAME, "an object with \"Benchmarks\" and \"HostEnvironmentInfo\" (BenchmarkDotNet's JSON exporter)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    JsonNode benchmarks = root.get("Benchmarks");
    Map<String, Integer> seen = new HashMap<>();
    for (JsonNode b : benchmarks) {
      seen.merge(fullName(b), 1, Integer::sum);
    }
    boolean summaries = false;
    for (int i = 0; i < benchmarks.size(); i++) {
      JsonNode b = benchmarks.get(i);
      String name = fullName(b);
      if (seen.get(name) > 1) {
        name = name + " [" + job(b) + "]";
      }
      summaries |= addBenchmark(run, b, name, "Benchmarks[" + i + "]");
    }
    if (summaries) {
      run.note("a report without measurements: statistics only, which detection weighs less than samples"
          + " (export the full JSON report for raw measurements)");
    }
    describe(run, root.path("HostEnvironmentInfo"));
  }

  private static String fullName(JsonNode b) {
    if (b.hasNonNull("FullName")) {
      return b.get("FullName").asText();
    }
    String parameters = b.path("Parameters").asText("");
    return b.path("Namespace").asText("") + "." + b.path("Type").asText("") + "." + b.path("Method").asText("")
        + (parameters.isEmpty() ? "" : "(" + parameters + ")");
  }

  /** "Memory.AllocEmptyList: ShortRun(IterationCount=3)" → "ShortRun(IterationCount=3)". */
  private static String job(JsonNode b) {
    String display = b.path("DisplayInfo").asText("");
    int colon = display.indexOf(": ");
    return colon < 0 ? display : display.substring(colon + 2);
  }

  /** Adds the benchmark; true when it came as statistics only. */
  private static boolean addBenchmark(ForeignRun run, JsonNode b, String name, String at) throws FormatException {
    String source = run.source();
    List<Double> samples = measurements(run, b.path("Measurements"), at + ".Measurements");
    JsonNode stats = b.path("Statistics");
    boolean summary = false;
    if (samples.isEmpty() && stats.path("OriginalValues").isArray() && !stats.get("OriginalValues").isEmpty()) {
      samples = JsonInput.numbers(stats.get("OriginalValues"), source, at + ".Statistics.OriginalValues");
    }
    if (!samples.isEmpty()) {
      run.add(name, "time-per-op", "ns", LOWER_IS_BETTER, samples);
    } else if (stats.isObject() && stats.has("Mean")) {
      String path = at + ".Statistics.";
      run.addSummary(name, "time-per-op", "ns", LOWER_IS_BETTER, new ForeignRun.Stats(
          (int) JsonInput.number(stats.get("N"), source, path + "N"), JsonInput.number(stats.get("Mean"), source, path + "Mean"),
          optional(stats, "StandardDeviation", source, path), optional(stats, "Min", source, path),
          optional(stats, "Median", source, path), optional(stats, "Max", source, path)));
      summary = true;
    } else {
      run.fail(name, "no measurements and no statistics (the benchmark failed or was not run)");
      return false;
    }
    if (allocationsMeasured(b)) {
      run.add(name, "allocated-bytes-per-op", "B", LOWER_IS_BETTER, Text.list(JsonInput.number(
          b.path("Memory").get("BytesAllocatedPerOperation"), source, at + ".Memory.BytesAllocatedPerOperation")));
    }
    return summary;
  }

  /** The Workload/Result measurements (0.11 and newer), or mode Result (0.10), in ns per operation. */
  private static List<Double> measurements(ForeignRun run, JsonNode measurements, String at) throws FormatException {
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < measurements.size(); i++) {
      JsonNode m = measurements.get(i);
      String mode = m.path("IterationMode").asText("");
      String stage = m.path("IterationStage").asText("");
      if (mode.equals("Workload") && stage.equals("Result") || mode.equals("Result") && stage.isEmpty()) {
        double ops = JsonInput.number(m.get("Operations"), run.source(), at + "[" + i + "].Operations");
        double ns = JsonInput.number(m.get("Nanoseconds"), run.source(), at + "[" + i + "].Nanoseconds");
        if (ops <= 0) {
          throw new FormatException(run.source() + ": " + at + "[" + i + "].Operations is " + ops + ", expected more than 0");
        }
        values.add(ns / ops);
      }
    }
    return values;
  }

  /** MemoryDiagnoser ran: its "Allocated Memory" metric (0.13+), or bytes allocated in the Memory block. */
  private static boolean allocationsMeasured(JsonNode b) {
    if (!b.path("Memory").has("BytesAllocatedPerOperation")) {
      return false;
    }
    if (b.path("Metrics").isArray()) {
      return b.get("Metrics").valueStream()
          .anyMatch(m -> m.path("Descriptor").path("Id").asText("").equals("Allocated Memory"));
    }
    return b.path("Memory").path("BytesAllocatedPerOperation").asDouble(0) > 0;
  }

  private static Double optional(JsonNode stats, String field, String source, String path) throws FormatException {
    return stats.hasNonNull(field) ? JsonInput.number(stats.get(field), source, path + field) : null;
  }

  private static void describe(ForeignRun run, JsonNode host) {
    for (String field : Text.list("BenchmarkDotNetVersion", "OsVersion", "RuntimeVersion", "Architecture",
        "Configuration", "DotNetCliVersion")) {
      if (host.path(field).isValueNode()) {
        run.attribute("benchmarkdotnet." + field, host.get(field).asText());
      }
    }
    JsonNode cpu = host.path("ProcessorName");
    run.attribute("benchmarkdotnet.ProcessorName", cpu.isObject() ? cpu.path("Value").asText("") : cpu.asText(""));
  }
}
