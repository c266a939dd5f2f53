package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * JMH's {@code -rf json}: each measurement iteration of each fork is a sample ({@code rawData[fork][iteration]});
 * in sample mode, where JMH keeps a histogram per iteration instead, the iteration's mean is the sample.
 * The benchmark is named {@code benchmark} plus its {@code @Param} values ({@code bench.Foo.bar[size=10]}), the
 * metric after the mode; throughput is higher-is-better, the time modes lower-is-better. Secondary metrics
 * (profilers' {@code gc.alloc.rate} …) ride along as further metrics of the same benchmark. Sample mode's
 * percentiles ({@code p0.00 … p1.00}) are named after the mode's metric ({@code sample-time:p0.50}), which the
 * server treats as secondary metrics: hints on the benchmark's regression, never alarms of their own.
 */
final class JmhFormat extends JsonFormat {

  static final String NAME = "jmh";

  private static final class Mode {
    private final String metric;
    private final String direction;

    Mode(String metric, String direction) {
      this.metric = metric;
      this.direction = direction;
    }

    String metric() {
      return metric;
    }

    String direction() {
      return direction;
    }
  }

  private static final Map<String, Mode> MODES = Text.map(
      "thrpt", new Mode("throughput", HIGHER_IS_BETTER),
      "avgt", new Mode("average-time", LOWER_IS_BETTER),
      "sample", new Mode("sample-time", LOWER_IS_BETTER),
      "ss", new Mode("single-shot-time", LOWER_IS_BETTER));

  JmhFormat() {
    super(NAME, "an array of benchmark results (JMH -rf json)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    Map<String, Integer> modesPerBenchmark = new HashMap<>();
    for (JsonNode entry : root) {
      modesPerBenchmark.merge(benchmarkName(entry), 1, Integer::sum);
    }
    for (int i = 0; i < root.size(); i++) {
      JsonNode entry = root.get(i);
      addBenchmark(run, entry, "[" + i + "]", modesPerBenchmark.get(benchmarkName(entry)) > 1);
    }
    if (!root.isEmpty()) {
      describeJvm(run, root.get(0));
    }
  }

  private static void addBenchmark(ForeignRun run, JsonNode entry, String at, boolean severalModes)
      throws FormatException {
    String source = run.source();
    JsonInput.text(entry.get("benchmark"), source, at + ".benchmark");
    String name = benchmarkName(entry);
    String modeName = JsonInput.text(entry.get("mode"), source, at + ".mode");
    Mode mode = MODES.get(modeName);
    if (mode == null) {
      throw new FormatException(source + ": " + at + ".mode is '" + modeName + "', expected one of thrpt, avgt, sample, ss");
    }
    JsonNode primary = JsonInput.requireObject(entry.get("primaryMetric"), source, at + ".primaryMetric");
    run.add(name, mode.metric(), JsonInput.text(primary.get("scoreUnit"), source, at + ".primaryMetric.scoreUnit"),
        mode.direction(), samples(source, primary, at + ".primaryMetric"));
    for (Map.Entry<String, JsonNode> secondary : entry.path("secondaryMetrics").properties()) {
      if (PERCENTILE.matcher(secondary.getKey()).matches()) {
        addPercentile(run, name, mode.metric(), secondary.getKey(), secondary.getValue(), at);
      } else {
        addSecondary(run, name, secondary.getKey(), secondary.getValue(), at, severalModes ? modeName : null);
      }
    }
  }

  /** Sample mode's percentile keys: {@code p0.00}, {@code p0.9999}, {@code p1.00} (a middle dot before 1.37). */
  private static final Pattern PERCENTILE = Pattern.compile("[\u00b7:]*p[01]\\.\\d+");

  private static void addPercentile(ForeignRun run, String benchmark, String modeMetric, String key, JsonNode metric,
      String at) throws FormatException {
    String path = at + ".secondaryMetrics." + key;
    List<Double> samples = samples(run.source(), metric, path);
    if (!samples.isEmpty()) {
      run.add(benchmark, modeMetric + ":" + key.replaceFirst("^[\u00b7:]+", ""),
          JsonInput.text(metric.get("scoreUnit"), run.source(), path + ".scoreUnit"), LOWER_IS_BETTER, samples);
    }
  }

  /** A profiler's metric; named with the mode too when the benchmark ran in several modes, to stay distinct. */
  private static void addSecondary(ForeignRun run, String benchmark, String key, JsonNode metric, String at,
      String mode) throws FormatException {
    if (!metric.has("rawData") && !metric.has("rawDataHistogram")) {
      return; // textual profiler output (the stack profiler) has no numbers to compare
    }
    String path = at + ".secondaryMetrics." + key;
    String unit = JsonInput.text(metric.get("scoreUnit"), run.source(), path + ".scoreUnit");
    // JMH before 1.37 prefixed profiler metrics with a middle dot: "·gc.alloc.rate"
    String name = key.replaceFirst("^[\u00b7:]+", "") + (mode != null ? " (" + mode + ")" : "");
    List<Double> samples = samples(run.source(), metric, path);
    if (!samples.isEmpty()) {
      run.add(benchmark, name, unit, unit.startsWith("ops/") ? HIGHER_IS_BETTER : LOWER_IS_BETTER, samples);
    }
  }

  static String benchmarkName(JsonNode entry) {
    String name = entry.path("benchmark").asText();
    JsonNode params = entry.path("params");
    if (!params.isObject() || params.isEmpty()) {
      return name;
    }
    List<String> pairs = new ArrayList<>();
    params.forEachEntry((key, value) -> pairs.add(key + "=" + value.asText()));
    return name + "[" + String.join(",", pairs) + "]";
  }

  private static List<Double> samples(String source, JsonNode metric, String path) throws FormatException {
    List<Double> samples = new ArrayList<>();
    if (metric.has("rawData")) {
      JsonNode forks = JsonInput.requireArray(metric.get("rawData"), source, path + ".rawData");
      for (int f = 0; f < forks.size(); f++) {
        samples.addAll(JsonInput.numbers(forks.get(f), source, path + ".rawData[" + f + "]"));
      }
    } else if (metric.has("rawDataHistogram")) {
      JsonNode forks = JsonInput.requireArray(metric.get("rawDataHistogram"), source, path + ".rawDataHistogram");
      for (int f = 0; f < forks.size(); f++) {
        String forkPath = path + ".rawDataHistogram[" + f + "]";
        JsonNode iterations = JsonInput.requireArray(forks.get(f), source, forkPath);
        for (int i = 0; i < iterations.size(); i++) {
          samples.add(histogramMean(source, iterations.get(i), forkPath + "[" + i + "]"));
        }
      }
    } else {
      throw new FormatException(source + ": " + path + " has neither rawData nor rawDataHistogram");
    }
    return samples;
  }

  /** The mean of one iteration's histogram of [value, count] pairs. */
  private static double histogramMean(String source, JsonNode bins, String path) throws FormatException {
    JsonInput.requireArray(bins, source, path);
    double sum = 0;
    double count = 0;
    for (int b = 0; b < bins.size(); b++) {
      List<Double> bin = JsonInput.numbers(bins.get(b), source, path + "[" + b + "]");
      if (bin.size() != 2) {
        throw new FormatException(source + ": " + path + "[" + b + "] is not a [value, count] pair");
      }
      sum += bin.get(0) * bin.get(1);
      count += bin.get(1);
    }
    if (count == 0) {
      throw new FormatException(source + ": " + path + " is an empty histogram");
    }
    return sum / count;
  }

  private static void describeJvm(ForeignRun run, JsonNode first) {
    for (String field : Text.list("jmhVersion", "jdkVersion", "vmName", "vmVersion")) {
      run.attribute("jmh." + field, first.path(field).asText(""));
    }
    List<String> jvmArgs = new ArrayList<>();
    first.path("jvmArgs").forEach(arg -> jvmArgs.add(arg.asText()));
    run.attribute("jmh.jvmArgs", String.join(" ", jvmArgs));
  }
}
