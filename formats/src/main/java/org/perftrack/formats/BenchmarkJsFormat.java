package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Benchmark.js (and what prints its way: benchmark, tinybench's older console, many npm packages' bench scripts), as
 * its console lines or as its benchmarks serialised to JSON. Either way a benchmark becomes {@code time-per-op} in
 * seconds, lower is better. A console line ({@code fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)}, what
 * {@code String(benchmark)} prints in the suite's {@code cycle} event) says no samples: it becomes a summary-only
 * result, n = the runs sampled, mean = 1 / ops per second, and the standard deviation that gives the printed
 * relative margin of error with Benchmark.js's own t table. A line cut off at the end of the file is left out and
 * noted. The JSON ({@code JSON.stringify} of one Benchmark, an array of them, or of the suite) gives each benchmark's
 * {@code stats.sample} (seconds per operation per cycle) as its samples; without one, its {@code stats.mean},
 * {@code times.period} or {@code 1 / hz} as the one figure. A benchmark with an {@code error} is a failure.
 */
final class BenchmarkJsFormat extends TextFormat {

  static final String NAME = "benchmarkjs";

  /** Benchmark.js writes "±" (U+00B1); a console in another code page may show it as one to three other signs. */
  private static final Pattern LINE = Pattern.compile(
      "^(.+?) x ([0-9,]+(?:\\.[0-9]+)?) ops/sec [^0-9\\s]{1,3}([0-9]+(?:\\.[0-9]+)?)% \\((\\d+) runs? sampled\\)\\s*$");

  /** Benchmark.js's two-tailed t values at 95 % by degrees of freedom (1 to 30; beyond: 1.96). */
  private static final double[] T = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
      2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
      2.045, 2.042};

  BenchmarkJsFormat() {
    super(NAME, "lines like 'fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)' or the JSON of Benchmark"
        + " objects (name, hz, stats, times)");
  }

  /** A result line, or its start as a file cut off inside it leaves it ({@code RegExp#test x 1,78}). */
  private static final Pattern STARTED = Pattern.compile("^.+ x [0-9][0-9,.]*(?: o[ps/ec]*)?$");

  @Override
  boolean isResultLine(String line) {
    return line.contains(" ops/sec ") || STARTED.matcher(line).matches();
  }

  /** One benchmark a line: a file cut inside its last line keeps the benchmarks before it. */
  @Override
  boolean keepsWholeLines() {
    return true;
  }

  @Override
  void read(List<String> lines, ForeignRun run, String sourceName) throws FormatException {
    String first = lines.stream().filter(l -> !Text.blank(l)).findFirst().map(Text::strip).orElse("");
    if (first.startsWith("{") || first.startsWith("[")) {
      readJson(JsonInput.read(String.join("\n", lines).getBytes(StandardCharsets.UTF_8), sourceName), run);
      return;
    }
    boolean any = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith(CUT)) {
        run.note(line.substring(CUT.length()));
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        run.addSummary(Text.strip(m.group(1)), "time-per-op", "s", LOWER_IS_BETTER, stats(m, sourceName, i));
        any = true;
      } else if (line.contains(" ops/sec ")) {
        throw new FormatException(sourceName + ": line " + (i + 1) + " is not a Benchmark.js result line: '"
            + (line.length() > 80 ? line.substring(0, 80) + "…" : line) + "'");
      }
    }
    if (any) {
      run.note("Benchmark.js's console lines give ops/sec and a margin of error, not samples: summary-only results,"
          + " which detection weighs less (its JSON has the samples)");
    }
  }

  private static ForeignRun.Stats stats(Matcher m, String source, int line) throws FormatException {
    double hz = printedNumber(m.group(2), source, line);
    int n = Integer.parseInt(m.group(4));
    if (hz <= 0 || n < 1) {
      throw new FormatException(source + ": line " + (line + 1) + ": " + m.group(2) + " ops/sec of " + n
          + " runs is no measurement");
    }
    double mean = 1 / hz;
    // rme = t * sd / sqrt(n) / mean * 100, so sd = rme / 100 * mean * sqrt(n) / t; one run has no deviation
    Double sd = n < 2 ? null : printedNumber(m.group(3), source, line) / 100 * mean * Math.sqrt(n) / (n - 1 <= T.length
        ? T[n - 2] : 1.96);
    return new ForeignRun.Stats(n, mean, sd, null, null, null);
  }

  private static void readJson(JsonNode root, ForeignRun run) throws FormatException {
    String source = run.source();
    List<JsonNode> benchmarks = new ArrayList<>();
    boolean single = false;
    if (root.isArray()) {
      root.forEach(benchmarks::add);
    } else if (root.has("length") && root.has("0")) { // the suite: its benchmarks under "0", "1", …
      for (int i = 0; root.has(String.valueOf(i)); i++) {
        benchmarks.add(root.get(String.valueOf(i)));
      }
    } else {
      benchmarks.add(root);
      single = true;
    }
    for (int i = 0; i < benchmarks.size(); i++) {
      String path = single ? "" : "[" + i + "]";
      JsonNode b = JsonInput.requireObject(benchmarks.get(i), source, single ? "the benchmark" : path);
      String name = JsonInput.text(b.get("name"), source, at(path, "name"));
      if (b.has("error")) {
        JsonNode error = b.get("error");
        run.fail(name, "the benchmark threw an error" + (error.hasNonNull("message")
            ? ": " + error.get("message").asText() : ""));
        continue;
      }
      JsonNode sample = b.path("stats").path("sample");
      run.add(name, "time-per-op", "s", LOWER_IS_BETTER, sample.isArray() && !sample.isEmpty()
          ? JsonInput.numbers(sample, source, at(path, "stats.sample")) : Text.list(figure(b, source, path)));
    }
  }

  private static String at(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  /** A benchmark without samples: its mean time per operation in seconds. */
  private static double figure(JsonNode b, String source, String path) throws FormatException {
    if (b.path("stats").hasNonNull("mean")) {
      return JsonInput.number(b.get("stats").get("mean"), source, at(path, "stats.mean"));
    }
    if (b.path("times").hasNonNull("period")) {
      return JsonInput.number(b.get("times").get("period"), source, at(path, "times.period"));
    }
    double hz = JsonInput.number(b.get("hz"), source, at(path, "hz"));
    if (hz <= 0) {
      throw new FormatException(source + ": " + at(path, "hz") + " is " + hz + ", not a rate");
    }
    return 1 / hz;
  }
}
