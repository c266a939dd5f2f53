package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code go test -bench} text output. Each result line is one sample of its benchmark, so {@code -count N}
 * gives N samples; the name is kept as Go prints it, with its {@code -GOMAXPROCS} suffix
 * ({@code BenchmarkRepeat/n=16-8}), since {@code -cpu 1,2} measures different things under one function.
 * {@code ns/op} becomes {@code time-per-op} (ns), {@code MB/s} (from {@code b.SetBytes}) {@code throughput}
 * (higher is better), {@code -benchmem}'s {@code B/op} and {@code allocs/op} {@code bytes-per-op} and
 * {@code allocs-per-op}; a unit from {@code b.ReportMetric} is a metric of its own name (unit 1; higher is
 * better when it ends in {@code /s}). The {@code goos}, {@code goarch}, {@code pkg} and {@code cpu} lines become
 * attributes; with several packages in one file ({@code go test ./...}) the name is prefixed with the package.
 * {@code --- FAIL: BenchmarkX} lines are failures. {@code go test -json} output is read too: the {@code Output} of
 * its events, joined per package, is the same text.
 */
final class GoBenchFormat extends TextFormat {

  static final String NAME = "go-bench";

  private static final Pattern RESULT = Pattern.compile("^(Benchmark\\S*)\\s+(\\d+)((?:\\s+[-+0-9.eE]+ \\S+)+)\\s*$");
  private static final Pattern STARTED = Pattern.compile("^Benchmark");
  private static final Pattern PAIR = Pattern.compile("\\s+([-+0-9.eE]+) (\\S+)");
  private static final Pattern CONFIG = Pattern.compile("^(goos|goarch|pkg|cpu): (.+)$");
  private static final Pattern FAILED = Pattern.compile("^\\s*--- FAIL: (Benchmark\\S*)");

  private static final class Metric {
    private final String name;
    private final String unit;
    private final String direction;

    Metric(String name, String unit, String direction) {
      this.name = name;
      this.unit = unit;
      this.direction = direction;
    }

    String name() {
      return name;
    }

    String unit() {
      return unit;
    }

    String direction() {
      return direction;
    }
  }

  private static final Map<String, Metric> KNOWN = Text.map(
      "ns/op", new Metric("time-per-op", "ns", LOWER_IS_BETTER),
      "MB/s", new Metric("throughput", "MB/s", HIGHER_IS_BETTER),
      "B/op", new Metric("bytes-per-op", "B", LOWER_IS_BETTER),
      "allocs/op", new Metric("allocs-per-op", "allocs", LOWER_IS_BETTER));

  GoBenchFormat() {
    super(NAME, "lines like 'BenchmarkX-8  1000  123 ns/op' (go test -bench)");
  }

  @Override
  boolean isResultLine(String line) {
    return STARTED.matcher(line).find();
  }

  @Override
  void read(List<String> text, ForeignRun run, String sourceName) throws FormatException {
    List<String> lines = isJson(text) ? fromEvents(text, sourceName) : text;
    Map<String, Map<String, List<Double>>> values = new LinkedHashMap<>();
    Set<String> packages = new LinkedHashSet<>();
    Map<String, String> packageOf = new LinkedHashMap<>();
    String pkg = "";
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher config = CONFIG.matcher(line);
      if (config.matches()) {
        if (config.group(1).equals("pkg")) {
          pkg = Text.strip(config.group(2));
          packages.add(pkg);
        } else {
          run.attribute("go." + config.group(1), Text.strip(config.group(2)));
        }
        continue;
      }
      Matcher failed = FAILED.matcher(line);
      if (failed.find()) {
        run.fail(failed.group(1), "--- FAIL (line " + (i + 1) + ")");
        continue;
      }
      Matcher m = RESULT.matcher(line);
      if (m.matches()) {
        String key = pkg + '\u0000' + m.group(1);
        packageOf.put(key, pkg);
        Map<String, List<Double>> metrics = values.computeIfAbsent(key, k -> new LinkedHashMap<>());
        Matcher pair = PAIR.matcher(m.group(3));
        while (pair.find()) {
          metrics.computeIfAbsent(pair.group(2), k -> new ArrayList<>()).add(number(pair.group(1), sourceName, i));
        }
      }
    }
    if (packages.size() == 1) {
      run.attribute("go.pkg", packages.iterator().next());
    }
    add(run, values, packages.size() > 1);
  }

  private static boolean isJson(List<String> lines) {
    return lines.stream().filter(l -> !Text.blank(l)).findFirst().map(l -> Text.strip(l).startsWith("{")).orElse(false);
  }

  /**
   * The text of {@code go test -json}'s output events. A benchmark's line comes in pieces (its name, then its
   * figures), and packages tested in parallel interleave: the pieces are joined per package, in order.
   */
  private static List<String> fromEvents(List<String> events, String source) throws FormatException {
    Map<String, StringBuilder> byPackage = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      if (Text.blank(events.get(i))) {
        continue;
      }
      com.fasterxml.jackson.databind.JsonNode event;
      try {
        event = JsonInput.read(events.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8), "event");
      } catch (FormatException e) {
        throw new FormatException(source + (e.getMessage().startsWith("event: truncated")
            ? ": truncated: the file ends inside line " + (i + 1) + ", an unfinished go test -json event"
            : ": line " + (i + 1) + " is not a go test -json event: " + e.getMessage().substring("event: ".length())), e);
      }
      if (event.path("Action").asText("").equals("output")) {
        byPackage.computeIfAbsent(event.path("Package").asText(""), p -> new StringBuilder())
            .append(event.path("Output").asText(""));
      }
    }
    List<String> lines = new ArrayList<>();
    for (StringBuilder text : byPackage.values()) {
      lines.addAll(Text.lines(text.toString()));
    }
    return lines;
  }

  private static void add(ForeignRun run, Map<String, Map<String, List<Double>>> values, boolean prefix)
      throws FormatException {
    Set<String> custom = new LinkedHashSet<>();
    for (Map.Entry<String, Map<String, List<Double>>> benchmark : values.entrySet()) {
      String[] key = benchmark.getKey().split("\u0000", 2);
      String name = prefix && !key[0].isEmpty() ? key[0] + "." + key[1] : key[1];
      for (Map.Entry<String, List<Double>> metric : benchmark.getValue().entrySet()) {
        Metric known = KNOWN.get(metric.getKey());
        if (known == null) {
          custom.add(metric.getKey());
          known = new Metric(metric.getKey(), "1", metric.getKey().endsWith("/s") ? HIGHER_IS_BETTER : LOWER_IS_BETTER);
        }
        run.add(name, known.name(), known.unit(), known.direction(), metric.getValue());
      }
    }
    if (!custom.isEmpty()) {
      run.note("metrics reported with b.ReportMetric (unit 1; higher is better only for a unit ending in /s): "
          + String.join(", ", custom));
    }
  }

  private static double number(String text, String source, int line) throws FormatException {
    try {
      double value = Double.parseDouble(text);
      if (Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FormatException(source + ": line " + (line + 1) + ": '" + text + "' is not a finite number");
  }
}
