package org.perftrack.formats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.BenchmarkFailure;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * Collects what a converter found in another tool's file and makes the run from it. Those files do not say
 * which product, version and machine they measured, so the run context must; the suite is the format's name.
 */
final class ForeignRun {

  /**
   * The server's limits for names and attribute values; checked here to name the culprit in the tool's terms.
   * Benchmark names are generous: JMH class + {@code @Param} names and hyperfine commands run to hundreds of
   * characters, and a CI job cannot shorten them.
   */
  static final int MAX_BENCHMARK_NAME = 1000;
  static final int MAX_NAME = 128;
  static final int MAX_ATTRIBUTE_VALUE = 1024;
  static final int MAX_ATTRIBUTES = 200;

  private final String source;
  private final String format;
  private final RunContext context;
  private final List<ResultUpload> results = new ArrayList<>();
  private final List<BenchmarkFailure> failures = new ArrayList<>();
  private final Map<String, String> attributes = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final Set<String> fingerprints = new HashSet<>();
  private Instant startedAt;

  private ForeignRun(String source, String format, RunContext context) {
    this.source = source;
    this.format = format;
    this.context = context;
  }

  static ForeignRun start(String source, String format, RunContext context) throws FormatException {
    List<String> missing = new ArrayList<>();
    if (context == null || isBlank(context.product())) {
      missing.add("product");
    }
    if (context == null || isBlank(context.version())) {
      missing.add("version");
    }
    if (context == null || isBlank(context.machine())) {
      missing.add("machine");
    }
    if (!missing.isEmpty()) {
      throw new FormatException(source + ": a " + FormatSniffer.label(format)
          + " file does not say which product, version and machine it measured; missing: " + String.join(", ", missing)
          + " (agent: --product --version --machine; server: ?product=&version=&machine=)");
    }
    return new ForeignRun(source, format, context);
  }

  String source() {
    return source;
  }

  /** Adds one metric of one benchmark; a second result with the same benchmark and metric is an error. */
  void add(String benchmark, String metric, String unit, String direction, List<Double> samples)
      throws FormatException {
    if (samples.isEmpty()) {
      throw new FormatException(source + ": benchmark '" + benchmark + "' has no samples for " + metric);
    }
    addResult(benchmark, metric, new ResultUpload(benchmark, metric, unit, direction, Text.copy(samples)));
  }

  /** The statistics a tool wrote when it kept no raw samples; the server stores and shows them as such. */
  static final class Stats {
    private final int n;
    private final double mean;
    private final Double stddev;
    private final Double min;
    private final Double median;
    private final Double max;

    Stats(int n, double mean, Double stddev, Double min, Double median, Double max) {
      this.n = n;
      this.mean = mean;
      this.stddev = stddev;
      this.min = min;
      this.median = median;
      this.max = max;
    }

    int n() {
      return n;
    }

    double mean() {
      return mean;
    }

    Double stddev() {
      return stddev;
    }

    Double min() {
      return min;
    }

    Double median() {
      return median;
    }

    Double max() {
      return max;
    }
  }

  /** Adds one metric of one benchmark as a summary-only result. */
  void addSummary(String benchmark, String metric, String unit, String direction, Stats stats)
      throws FormatException {
    addResult(benchmark, metric, new ResultUpload(benchmark, metric, unit, direction, null, stats.n(), stats.mean(),
        stats.stddev(), stats.min(), stats.median(), stats.max()));
  }

  private void addResult(String benchmark, String metric, ResultUpload result) throws FormatException {
    if (benchmark.length() > MAX_BENCHMARK_NAME) {
      throw new FormatException(source + ": benchmark name '" + benchmark.substring(0, 60) + "…' is "
          + benchmark.length() + " characters long, the limit is " + MAX_BENCHMARK_NAME + nameHint());
    }
    if (benchmark.chars().anyMatch(Character::isISOControl)) {
      throw new FormatException(source + ": benchmark name '" + benchmark.replaceAll("\\p{Cntrl}", "␤")
          + "' contains a line break or another control character" + nameHint());
    }
    if (!fingerprints.add(benchmark + '\u0000' + metric)) {
      throw new FormatException(source + ": benchmark '" + benchmark + "' appears twice (metric " + metric
          + "); give each benchmark its own name");
    }
    results.add(result);
  }

  void fail(String benchmark, String message) {
    failures.add(new BenchmarkFailure(benchmark, message));
  }

  /** Attributes only describe the run, so an odd one is tidied (control characters, length) rather than refused. */
  void attribute(String key, String value) {
    if (value == null || Text.blank(value) || key.length() > MAX_NAME || attributes.size() >= MAX_ATTRIBUTES - 1) {
      return;
    }
    attributes.put(key.replaceAll("\\p{Cntrl}", " "), tidy(value));
  }

  private static String tidy(String value) {
    String clean = Text.strip(value.replaceAll("\\p{Cntrl}", " "));
    return clean.length() <= MAX_ATTRIBUTE_VALUE ? clean : clean.substring(0, MAX_ATTRIBUTE_VALUE - 1) + "…";
  }

  private String nameHint() {
    return format.equals("hyperfine") ? "; name the command with hyperfine --command-name"
        : format.equals("jmh") ? "; shorten the class or @Param names" : "";
  }

  /** Something a reader of the run should know (a command that exited non-zero), kept in the "note" attribute. */
  void note(String note) {
    notes.add(note);
  }

  void startedAt(Instant startedAt) {
    this.startedAt = startedAt;
  }

  RunUpload build() throws FormatException {
    if (results.isEmpty()) {
      String why = failures.isEmpty() ? "" : "; failed: " + failures.stream()
          .map(f -> f.benchmark() + " (" + f.message() + ")").reduce((a, b) -> a + ", " + b).orElse("");
      throw new FormatException(source + ": no benchmark results in this " + FormatSniffer.label(format) + " file" + why);
    }
    if (!notes.isEmpty()) {
      attributes.put("note", tidy(String.join("; ", notes)));
    }
    String id = isBlank(context.runId()) ? UUID.randomUUID().toString() : context.runId();
    return new RunUpload(id, context.product(), context.version(), MachineInfo.named(context.machine()), format,
        null, startedAt, null, Collections.unmodifiableMap(attributes), Text.copy(results), Text.copy(failures));
  }

  private static boolean isBlank(String s) {
    return s == null || Text.blank(s);
  }
}
