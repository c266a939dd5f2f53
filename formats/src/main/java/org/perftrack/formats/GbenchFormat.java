package org.perftrack.formats;

import static org.perftrack.formats.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.formats.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Google Benchmark's {@code --benchmark_format=json} (or {@code --benchmark_out}): the repetitions of one
 * benchmark (entries sharing a {@code run_name}) become its samples; the mean/median/stddev/cv aggregates the
 * library adds are ignored, since we compute our own statistics from the repetitions. Times are per iteration
 * in the benchmark's {@code time_unit}.
 */
final class GbenchFormat extends ForeignFormat {

  static final String NAME = "gbench";

  private static final Set<String> TIME_UNITS = Set.of("ns", "us", "ms", "s");

  /** Fields the library writes itself; any other number is a user counter. */
  private static final Set<String> STANDARD_FIELDS = Set.of("name", "family_index", "per_family_instance_index",
      "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
      "time_unit", "bytes_per_second", "items_per_second", "label", "error_occurred", "error_message", "skipped",
      "skip_message", "aggregate_name", "aggregate_unit", "big_o", "rms", "complexity_n", "cpu_coefficient",
      "real_coefficient", "allocs_per_iter", "max_bytes_used");

  /** Counters the library itself knows the meaning of: throughput, and the memory manager's figures. */
  private record Counter(String field, String metric, String unit, String direction) {}

  private static final List<Counter> COUNTERS = List.of(
      new Counter("bytes_per_second", "bytes-per-second", "B/s", HIGHER_IS_BETTER),
      new Counter("items_per_second", "items-per-second", "items/s", HIGHER_IS_BETTER),
      new Counter("allocs_per_iter", "allocs-per-iteration", "allocs", LOWER_IS_BETTER),
      new Counter("max_bytes_used", "max-bytes-used", "B", LOWER_IS_BETTER));

  private record Repetition(JsonNode entry, String at) {}

  GbenchFormat() {
    super(NAME, "an object with \"context\" and \"benchmarks\" (a Google Benchmark program run with --benchmark_format=json)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    describeContext(run, root.get("context"));
    Map<String, List<Repetition>> byRun = groupRepetitions(run, root.get("benchmarks"));
    if (byRun.isEmpty() && !root.get("benchmarks").isEmpty()) {
      throw new FormatException(sourceName + ": the file holds only aggregates (mean, median, stddev), no repetitions;"
          + " run the benchmark without --benchmark_report_aggregates_only");
    }
    Set<String> ignoredCounters = new TreeSet<>();
    for (Map.Entry<String, List<Repetition>> e : byRun.entrySet()) {
      addBenchmark(run, e.getKey(), e.getValue(), ignoredCounters);
    }
    run.attribute("gbench.ignored-counters", String.join(", ", ignoredCounters));
  }

  private static Map<String, List<Repetition>> groupRepetitions(ForeignRun run, JsonNode benchmarks)
      throws FormatException {
    Map<String, List<Repetition>> byRun = new LinkedHashMap<>();
    for (int i = 0; i < benchmarks.size(); i++) {
      JsonNode entry = benchmarks.get(i);
      String at = "benchmarks[" + i + "]";
      if ("aggregate".equals(entry.path("run_type").asString()) || entry.has("aggregate_name")) {
        continue;
      }
      JsonNode name = entry.has("run_name") ? entry.get("run_name") : entry.get("name");
      byRun.computeIfAbsent(JsonInput.text(name, run.source(), at + ".run_name"), k -> new ArrayList<>())
          .add(new Repetition(entry, at));
    }
    return byRun;
  }

  private static void addBenchmark(ForeignRun run, String name, List<Repetition> reps, Set<String> ignoredCounters)
      throws FormatException {
    for (Repetition rep : reps) {
      // 1.8 also reports SkipWithMessage: error_occurred false, but a message and no usable times
      if (rep.entry().path("error_occurred").asBoolean(false) || rep.entry().path("skipped").asBoolean(false)
          || rep.entry().has("error_message") || rep.entry().has("skip_message")) {
        String message = rep.entry().path("error_message").asString(rep.entry().path("skip_message").asString(""));
        run.fail(name, message.isBlank() ? "skipped with an error" : message);
        return;
      }
    }
    String unit = timeUnit(run, reps);
    run.add(name, "real-time", unit, LOWER_IS_BETTER, values(run, reps, "real_time"));
    run.add(name, "cpu-time", unit, LOWER_IS_BETTER, values(run, reps, "cpu_time"));
    for (Counter counter : COUNTERS) {
      if (reps.get(0).entry().has(counter.field())) {
        run.add(name, counter.metric(), counter.unit(), counter.direction(), values(run, reps, counter.field()));
      }
    }
    // user counters carry no unit or direction in the JSON, so there is nothing safe to compare them by
    reps.get(0).entry().propertyNames().stream()
        .filter(field -> !STANDARD_FIELDS.contains(field) && reps.get(0).entry().get(field).isNumber())
        .forEach(ignoredCounters::add);
  }

  private static String timeUnit(ForeignRun run, List<Repetition> reps) throws FormatException {
    String unit = null;
    for (Repetition rep : reps) {
      String u = JsonInput.text(rep.entry().get("time_unit"), run.source(), rep.at() + ".time_unit");
      if (!TIME_UNITS.contains(u)) {
        throw new FormatException(run.source() + ": " + rep.at() + ".time_unit is '" + u + "', expected one of ns, us, ms, s");
      }
      if (unit != null && !unit.equals(u)) {
        throw new FormatException(run.source() + ": " + rep.at() + ".time_unit is '" + u + "' but earlier repetitions use '" + unit + "'");
      }
      unit = u;
    }
    return unit;
  }

  private static List<Double> values(ForeignRun run, List<Repetition> reps, String field) throws FormatException {
    List<Double> values = new ArrayList<>(reps.size());
    for (Repetition rep : reps) {
      values.add(JsonInput.number(rep.entry().get(field), run.source(), rep.at() + "." + field));
    }
    return values;
  }

  private static void describeContext(ForeignRun run, JsonNode context) {
    run.startedAt(JsonInput.instant(context.get("date"), false));
    for (String field : List.of("host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
        "library_version", "library_build_type")) {
      if (context.path(field).isValueNode()) {
        run.attribute("gbench." + field, context.get(field).asString());
      }
    }
  }
}
