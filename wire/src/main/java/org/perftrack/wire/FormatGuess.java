package org.perftrack.wire;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Tells which tool wrote a result file by its shape, so that a file sent without a format is recognised and
 * one sent with the wrong format is named ("this looks like a Google Benchmark file, not hyperfine"). The
 * agent (Java 8) and the server's converters ask the same rules. Only the file's first megabyte is looked
 * at, and a file that breaks off is still recognised by its start: the converter then says where it ends.
 */
public final class FormatGuess {

  /** The file's start that is looked at: every tool says what it is long before this. */
  static final int PREFIX = 1 << 20;

  private static final Map<String, String> LABELS = new LinkedHashMap<>();

  static {
    LABELS.put(FormatNames.PERFTRACK, "perftrack");
    LABELS.put("hyperfine", "hyperfine");
    LABELS.put("gbench", "Google Benchmark");
    LABELS.put("jmh", "JMH");
    LABELS.put("pytest-benchmark", "pytest-benchmark");
    LABELS.put("criterion", "Criterion.rs");
    LABELS.put("go-bench", "go test -bench");
    LABELS.put("benchmarkdotnet", "BenchmarkDotNet");
    LABELS.put("catch2", "Catch2 XML");
    LABELS.put("asv", "asv");
    LABELS.put("bmf", "Bencher Metric Format");
    LABELS.put("cargo-bench", "cargo bench (libtest)");
    LABELS.put("vitest", "vitest bench");
    LABELS.put("pyperf", "pyperf");
    LABELS.put("benchmarkjs", "Benchmark.js");
  }

  private static final Pattern GO_LINE =
      Pattern.compile("(?m)^Benchmark\\S*\\s+\\d+\\s+[-+0-9.eE]+ ns/op\\b");
  private static final Pattern LIBTEST_LINE = // libtest pads the names to one width
      Pattern.compile("(?m)^test \\S.* \\.\\.\\. bench:\\s+[0-9,.]+ \\S+/iter");
  private static final Pattern BENCHMARKJS_LINE = // String(benchmark): "fib(10) x 1,431,759 ops/sec +-0.74% (93 runs sampled)", the sign as the console shows it
      Pattern.compile("(?m)^.+ x [0-9,.]+ ops/sec \\S{1,3}[0-9.]+% \\(\\d+ runs? sampled\\)");
  private static final Pattern CATCH2_ROOT = Pattern.compile("<(Catch2TestRun|Catch)[\\s>]");
  private static final Pattern CRITERION_ENTRY = Pattern.compile("(^|.*/)new/(benchmark|sample)\\.json");
  private static final Pattern ASV_ENTRY = Pattern.compile("(^|.*/)benchmarks\\.json|(^|.*/)machine\\.json");

  private FormatGuess() {}

  /** The name of the format the file looks like (see {@link FormatNames#ALL}), or null when it looks like none. */
  public static String guess(byte[] content) {
    if (content == null || content.length == 0) {
      return null;
    }
    if (content.length > 3 && content[0] == 'P' && content[1] == 'K' && content[2] == 3 && content[3] == 4) {
      return guessZip(content);
    }
    String text = new String(content, 0, Math.min(content.length, PREFIX), StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    String start = text.trim();
    if (start.startsWith("{") || start.startsWith("[")) {
      return guessJson(JsonShape.read(start));
    }
    if (start.startsWith("<")) {
      return CATCH2_ROOT.matcher(start).find() ? "catch2" : null;
    }
    if (GO_LINE.matcher(text).find()) {
      return "go-bench";
    }
    if (BENCHMARKJS_LINE.matcher(text).find()) {
      return "benchmarkjs";
    }
    return LIBTEST_LINE.matcher(text).find() ? "cargo-bench" : null;
  }

  /** What people call the format: "Google Benchmark" for gbench. */
  public static String label(String format) {
    String label = LABELS.get(format);
    return label == null ? format : label;
  }

  /**
   * What {@code POST /api/v1/runs} without {@code ?format=} answers a tool's file (JSON or text, whatever its content
   * type): "the body looks like a Google Benchmark file: add ?format=gbench&product=…".
   */
  public static String addFormat(String format) {
    return "the body looks like a " + label(format) + " file: add ?format=" + format
        + "&product=…&version=…&machine=… (agent: upload --format " + format + ")";
  }

  /** The names of a zip's entries, for telling a zipped Criterion folder from an asv results folder. */
  private static String guessZip(byte[] content) {
    boolean asv = false;
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(content))) {
      int entries = 0;
      for (ZipEntry e = zip.getNextEntry(); e != null && entries < 100_000; e = zip.getNextEntry(), entries++) {
        if (CRITERION_ENTRY.matcher(e.getName()).matches()) {
          return "criterion";
        }
        asv |= ASV_ENTRY.matcher(e.getName()).matches();
      }
    } catch (IOException | IllegalArgumentException e) {
      // a broken zip: judge by the entries read so far
    }
    return asv ? "asv" : null;
  }

  /** A JSON array: Benchmark.js's benchmarks, or JMH's results. */
  private static String guessJsonList(List<Object> list) {
    Map<String, Object> first = first(list);
    if (isBenchmarkJs(first)) {
      return "benchmarkjs";
    }
    return list.isEmpty() || first.containsKey("primaryMetric") || first.containsKey("jmhVersion") ? "jmh" : null;
  }

  @SuppressWarnings("unchecked")
  private static String guessJson(Object root) {
    if (root instanceof List) {
      return guessJsonList((List<Object>) root);
    }
    if (!(root instanceof Map)) {
      return null;
    }
    Map<String, Object> o = (Map<String, Object>) root;
    if (isBenchmarkJs(o) || o.containsKey("length") && o.get("0") instanceof Map
        && isBenchmarkJs((Map<String, Object>) o.get("0"))) {
      return "benchmarkjs"; // one Benchmark, or the suite: its benchmarks under "0", "1", …
    }
    if (o.get("context") instanceof Map && o.get("benchmarks") instanceof List) {
      return "gbench";
    }
    if (o.get("benchmarks") instanceof List && !o.containsKey("context")) {
      Map<String, Object> first = first(o.get("benchmarks"));
      if (o.containsKey("machine_info") || o.containsKey("commit_info") || first.containsKey("stats")) {
        return "pytest-benchmark";
      }
      if (first.containsKey("runs") || o.containsKey("metadata") && o.get("version") instanceof String) {
        return "pyperf";
      }
    }
    if (o.get("results") instanceof List && !o.containsKey("product")) {
      List<Object> results = (List<Object>) o.get("results");
      if (results.isEmpty() || first(results).containsKey("command")) {
        return "hyperfine";
      }
    }
    String tool = guessObject(o);
    if (tool != null) {
      return tool;
    }
    if (o.containsKey("product") || first(o.get("results")).containsKey("samples")) {
      return FormatNames.PERFTRACK;
    }
    return isBmf(o) ? "bmf" : null;
  }

  /** The tools whose files are told by their own top-level keys. */
  private static String guessObject(Map<String, Object> o) {
    if (o.containsKey("Action") && o.containsKey("Package") && o.containsKey("Time")) {
      return "go-bench"; // the first event of go test -json
    }
    if (o.get("results") instanceof Map && (o.containsKey("commit_hash") || o.containsKey("env_name")
        || o.containsKey("result_columns"))) {
      return "asv"; // one result file of .asv/results/MACHINE/
    }
    if (o.get("Benchmarks") instanceof List && (o.containsKey("HostEnvironmentInfo") || o.containsKey("Title"))) {
      return "benchmarkdotnet";
    }
    if (o.get("files") instanceof List && (((List<?>) o.get("files")).isEmpty() || first(o.get("files")).containsKey("groups"))) {
      return "vitest";
    }
    if (o.containsKey("sampling_mode") || o.containsKey("iters") && o.containsKey("times")
        || o.containsKey("group_id") && o.containsKey("full_id")) {
      return "criterion"; // one file of a Criterion folder: its converter asks for the folder
    }
    return null;
  }

  /** A serialised Benchmark.js benchmark: its name, and its rate or its statistics (which come first). */
  private static boolean isBenchmarkJs(Map<String, ?> o) {
    return o.containsKey("name") && (o.containsKey("hz")
        || o.get("stats") instanceof Map && ((Map<?, ?>) o.get("stats")).containsKey("rme"));
  }

  /** {"benchmark": {"measure": {"value": 1.0, …}, …}, …}: every benchmark's measures have a value. */
  private static boolean isBmf(Map<String, Object> o) {
    if (o.isEmpty()) {
      return false;
    }
    int checked = 0;
    for (Object benchmark : o.values()) {
      if (!(benchmark instanceof Map) || ((Map<?, ?>) benchmark).isEmpty()) {
        return false;
      }
      for (Object measure : ((Map<?, ?>) benchmark).values()) {
        if (!(measure instanceof Map) || !((Map<?, ?>) measure).containsKey("value")) {
          return false;
        }
      }
      if (++checked == 20) {
        break;
      }
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> first(Object list) {
    if (list instanceof List && !((List<?>) list).isEmpty() && ((List<?>) list).get(0) instanceof Map) {
      return (Map<String, Object>) ((List<?>) list).get(0);
    }
    return Collections.emptyMap();
  }
}
