package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Google Benchmark's {@code --benchmark_format=json} (or {@code --benchmark_out}): the repetitions of one
 * benchmark (entries sharing a {@code run_name}) become its samples; the mean/median/stddev/cv aggregates and
 * the complexity fits (BigO, RMS) the library adds are ignored, since we compute our own statistics from the
 * repetitions. A benchmark that has aggregates and no repetitions ({@code --benchmark_report_aggregates_only})
 * becomes summary-only results: n = repetitions, mean, median, stddev. Files of 1.4 and older have no {@code run_type}: there the aggregates are told by their name
 * suffix ({@code BM_x_mean}). Times are per iteration in the benchmark's {@code time_unit}; user counters
 * become secondary metrics {@code counter:NAME} (the JSON carries no unit or direction for them). A rate the
 * library computed over a cpu_time of 0 is written as Infinity: that value is dropped, and the run's notes
 * say so.
 */
final class GbenchFormat extends JsonFormat {

  static final String NAME = "gbench";

  private static final Set<String> TIME_UNITS = Text.set("ns", "us", "ms", "s");

  /** Fields the library writes itself; any other number is a user counter. */
  private static final Set<String> STANDARD_FIELDS = Text.set("name", "family_index", "per_family_instance_index",
      "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
      "time_unit", "bytes_per_second", "items_per_second", "label", "error_occurred", "error_message", "skipped",
      "skip_message", "aggregate_name", "aggregate_unit", "big_o", "rms", "complexity_n", "cpu_coefficient",
      "real_coefficient", "allocs_per_iter", "max_bytes_used");

  /** Counters the library itself knows the meaning of: throughput, and the memory manager's figures. */
  private static final class Counter {
    private final String field;
    private final String metric;
    private final String unit;
    private final String direction;

    Counter(String field, String metric, String unit, String direction) {
      this.field = field;
      this.metric = metric;
      this.unit = unit;
      this.direction = direction;
    }

    String field() {
      return field;
    }

    String metric() {
      return metric;
    }

    String unit() {
      return unit;
    }

    String direction() {
      return direction;
    }
  }

  private static final List<Counter> COUNTERS = Text.list(
      new Counter("bytes_per_second", "bytes-per-second", "B/s", HIGHER_IS_BETTER),
      new Counter("items_per_second", "items-per-second", "items/s", HIGHER_IS_BETTER),
      new Counter("allocs_per_iter", "allocs-per-iteration", "allocs", LOWER_IS_BETTER),
      new Counter("max_bytes_used", "max-bytes-used", "B", LOWER_IS_BETTER));

  private static final class Repetition {
    private final JsonNode entry;
    private final String at;

    Repetition(JsonNode entry, String at) {
      this.entry = entry;
      this.at = at;
    }

    JsonNode entry() {
      return entry;
    }

    String at() {
      return at;
    }
  }

  /** The aggregates' names in files without run_type (1.4 and older). */
  private static final Pattern OLD_AGGREGATE =
      Pattern.compile(".*_(mean|median|stddev|cv|BigO|RMS)");

  /** A counter value is dimensionless as far as the JSON says. */
  static final String COUNTER_UNIT = "1";

  GbenchFormat() {
    super(NAME, "an object with \"context\" and \"benchmarks\" (a Google Benchmark program run with --benchmark_format=json)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    describeContext(run, root.get("context"));
    JsonNode benchmarks = root.get("benchmarks");
    boolean old = benchmarks.valueStream().noneMatch(entry -> entry.has("run_type"));
    Map<String, List<Repetition>> byRun = new LinkedHashMap<>();
    Map<String, Map<String, Repetition>> aggregates = new LinkedHashMap<>();
    group(run, benchmarks, old, byRun, aggregates);
    for (Map.Entry<String, List<Repetition>> e : byRun.entrySet()) {
      addBenchmark(run, e.getKey(), e.getValue());
    }
    List<String> summarised = new ArrayList<>();
    for (Map.Entry<String, Map<String, Repetition>> e : aggregates.entrySet()) {
      if (!byRun.containsKey(e.getKey()) && e.getValue().containsKey("mean")) {
        addSummaries(run, e.getKey(), e.getValue());
        summarised.add(e.getKey());
      }
    }
    if (!summarised.isEmpty()) {
      run.note(summarised.size() + " benchmark(s) came as aggregates only (--benchmark_report_aggregates_only):"
          + " stored as summaries (n = repetitions, mean, median, stddev); raw repetitions give better detection");
    }
    if (byRun.isEmpty() && summarised.isEmpty() && !benchmarks.isEmpty()) {
      throw new FormatException(sourceName + ": the file holds neither repetitions nor mean aggregates"
          + " (only complexity fits or other statistics)");
    }
  }

  /**
   * Sorts the entries into repetitions by run name and aggregates by run name and statistic. With
   * {@code --benchmark_report_aggregates_only} a benchmark has aggregates and no repetitions.
   */
  private static void group(ForeignRun run, JsonNode benchmarks, boolean old, Map<String, List<Repetition>> byRun,
      Map<String, Map<String, Repetition>> aggregates) throws FormatException {
    for (int i = 0; i < benchmarks.size(); i++) {
      JsonNode entry = benchmarks.get(i);
      String at = "benchmarks[" + i + "]";
      if (isAggregate(entry, old)) {
        String statistic = statistic(entry);
        String name = entry.has("run_name") ? JsonInput.text(entry.get("run_name"), run.source(), at + ".run_name")
            : baseName(JsonInput.text(entry.get("name"), run.source(), at + ".name"), statistic);
        aggregates.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(statistic, new Repetition(entry, at));
        continue;
      }
      JsonNode name = entry.has("run_name") ? entry.get("run_name") : entry.get("name");
      byRun.computeIfAbsent(JsonInput.text(name, run.source(), at + ".run_name"), k -> new ArrayList<>())
          .add(new Repetition(entry, at));
    }
  }

  /** {@code aggregate_name} (1.5 and newer), else the name's suffix ({@code BM_x_mean}); BigO and RMS as such. */
  private static String statistic(JsonNode entry) {
    if (entry.has("aggregate_name")) {
      return entry.get("aggregate_name").asText();
    }
    if (entry.has("big_o")) {
      return "BigO";
    }
    if (entry.has("rms")) {
      return "RMS";
    }
    String name = entry.path("name").asText();
    return name.substring(name.lastIndexOf('_') + 1);
  }

  private static String baseName(String name, String statistic) {
    return name.endsWith("_" + statistic) ? name.substring(0, name.length() - statistic.length() - 1) : name;
  }

  /**
   * A benchmark reported by its aggregates only: each time and counter becomes a summary-only result of
   * n = repetitions (the aggregates' {@code repetitions}; 1.4 files write it as their {@code iterations}).
   */
  private static void addSummaries(ForeignRun run, String name, Map<String, Repetition> byStatistic)
      throws FormatException {
    Repetition mean = byStatistic.get("mean");
    String unit = timeUnit(run, Text.list(mean));
    JsonNode counts = mean.entry().has("repetitions") ? mean.entry().get("repetitions") : mean.entry().get("iterations");
    int n = (int) JsonInput.number(counts, run.source(), mean.at() + (mean.entry().has("repetitions") ? ".repetitions" : ".iterations"));
    run.addSummary(name, "real-time", unit, LOWER_IS_BETTER, stats(run, byStatistic, "real_time", n));
    run.addSummary(name, "cpu-time", unit, LOWER_IS_BETTER, stats(run, byStatistic, "cpu_time", n));
    for (Counter counter : COUNTERS) {
      if (mean.entry().has(counter.field()) && !JsonInput.isInfinite(mean.entry().get(counter.field()))) {
        run.addSummary(name, counter.metric(), counter.unit(), counter.direction(), stats(run, byStatistic, counter.field(), n));
      }
    }
    Set<String> userCounters = new TreeSet<>();
    for (String field : JsonInput.names(mean.entry())) {
      JsonNode value = mean.entry().get(field);
      if (!STANDARD_FIELDS.contains(field) && value.isNumber() && !JsonInput.isInfinite(value)) {
        userCounters.add(field);
      }
    }
    for (String field : userCounters) {
      run.addSummary(name, "counter:" + field, COUNTER_UNIT, LOWER_IS_BETTER, stats(run, byStatistic, field, n));
    }
  }

  /** Mean (required), median and stddev of one field; an infinite or missing median or stddev is left out. */
  private static ForeignRun.Stats stats(ForeignRun run, Map<String, Repetition> byStatistic, String field, int n)
      throws FormatException {
    Repetition mean = byStatistic.get("mean");
    double value = JsonInput.number(mean.entry().get(field), run.source(), mean.at() + "." + field);
    return new ForeignRun.Stats(n, value, optional(run, byStatistic.get("stddev"), field), null,
        optional(run, byStatistic.get("median"), field), null);
  }

  private static Double optional(ForeignRun run, Repetition aggregate, String field) throws FormatException {
    if (aggregate == null || !aggregate.entry().has(field) || JsonInput.isInfinite(aggregate.entry().get(field))) {
      return null;
    }
    return JsonInput.number(aggregate.entry().get(field), run.source(), aggregate.at() + "." + field);
  }

  private static boolean isAggregate(JsonNode entry, boolean old) {
    if ("aggregate".equals(entry.path("run_type").asText()) || entry.has("aggregate_name")
        || entry.has("big_o") || entry.has("rms")) {
      return true;
    }
    return old && OLD_AGGREGATE.matcher(entry.path("name").asText()).matches();
  }

  private static void addBenchmark(ForeignRun run, String name, List<Repetition> reps) throws FormatException {
    for (Repetition rep : reps) {
      // 1.8 also reports SkipWithMessage: error_occurred false, but a message and no usable times
      if (rep.entry().path("error_occurred").asBoolean(false) || rep.entry().path("skipped").asBoolean(false)
          || rep.entry().has("error_message") || rep.entry().has("skip_message")) {
        String message = rep.entry().path("error_message").asText(rep.entry().path("skip_message").asText(""));
        run.fail(name, Text.blank(message) ? "skipped with an error" : message);
        return;
      }
    }
    String unit = timeUnit(run, reps);
    run.add(name, "real-time", unit, LOWER_IS_BETTER, values(run, reps, "real_time"));
    run.add(name, "cpu-time", unit, LOWER_IS_BETTER, values(run, reps, "cpu_time"));
    for (Counter counter : COUNTERS) {
      if (reps.get(0).entry().has(counter.field())) {
        addFinite(run, name, counter.field(), counter.metric(), counter.unit(), counter.direction(), reps);
      }
    }
    Set<String> userCounters = new TreeSet<>();
    for (String field : JsonInput.names(reps.get(0).entry())) {
      JsonNode value = reps.get(0).entry().get(field);
      if (!STANDARD_FIELDS.contains(field) && (value.isNumber() || JsonInput.isInfinite(value))) {
        userCounters.add(field);
      }
    }
    for (String field : userCounters) {
      addFinite(run, name, field, "counter:" + field, COUNTER_UNIT, LOWER_IS_BETTER, reps);
    }
  }

  /** A rate over a cpu_time of 0 is Infinity: drop that value and note it, keep the others. */
  private static void addFinite(ForeignRun run, String name, String field, String metric, String unit,
      String direction, List<Repetition> reps) throws FormatException {
    List<Repetition> finite = new ArrayList<>(reps.size());
    for (Repetition rep : reps) {
      if (JsonInput.isInfinite(rep.entry().get(field))) {
        continue;
      }
      finite.add(rep);
    }
    if (finite.size() < reps.size()) {
      run.note(name + ": " + (reps.size() - finite.size()) + " of " + reps.size() + " " + field
          + " values were infinite (a rate over a cpu_time of 0) and were dropped");
    }
    if (!finite.isEmpty()) {
      run.add(name, metric, unit, direction, values(run, finite, field));
    }
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

  /** A date without a time zone (1.4 and older write local time) is read as UTC; gbench.date keeps it as written. */
  private static void describeContext(ForeignRun run, JsonNode context) {
    run.startedAt(JsonInput.instant(context.get("date"), true));
    run.attribute("gbench.date", context.path("date").asText(""));
    for (String field : Text.list("host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
        "library_version", "library_build_type")) {
      if (context.path(field).isValueNode()) {
        run.attribute("gbench." + field, context.get(field).asText());
      }
    }
  }
}
