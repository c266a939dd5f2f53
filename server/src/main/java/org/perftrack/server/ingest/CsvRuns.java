package org.perftrack.server.ingest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * The CSV layout of a bulk import (a spreadsheet's history): a header row naming the columns
 * {@code product, machine, version, benchmark, metric, unit, direction} and {@code value} or {@code samples}
 * (numbers separated by spaces or semicolons), optionally {@code run} (a label that separates several runs of
 * one version on one machine) and {@code suite}. The rows of one product, machine, version and run make one
 * run; rows repeating a benchmark and metric add their values to its samples (one row per measurement is
 * fine). The run id is derived from product, machine, version and run, so importing the file again changes
 * nothing. RFC 4180 quoting; one record per line.
 */
final class CsvRuns {

  static final List<String> REQUIRED = List.of("product", "machine", "version", "benchmark", "metric", "unit",
      "direction");

  /** A run assembled from rows, numbered by its first row's line; or a line's problem. */
  record Parsed(long line, RunUpload run, List<FieldProblem> problems) {}

  /** The runs and problems of a file, and how many lines after the header were read. */
  record Read(List<Parsed> parsed, long lines) {}

  private record Key(String product, String machine, String version, String run) {}

  private static final class Building {
    final long line;
    final String suite;
    final Map<String, Result> results = new LinkedHashMap<>();

    Building(long line, String suite) {
      this.line = line;
      this.suite = suite;
    }
  }

  /** A result being assembled: rows repeating its benchmark and metric append their values in place. */
  private static final class Result {
    final String benchmark;
    final String metric;
    String unit;
    String direction;
    final List<Double> samples = new ArrayList<>();

    Result(String benchmark, String metric) {
      this.benchmark = benchmark;
      this.metric = metric;
    }

    ResultUpload upload() {
      return new ResultUpload(benchmark, metric, unit, direction, samples);
    }
  }

  private CsvRuns() {}

  static Read read(InputStream in, int maxLineBytes, long maxLines) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    List<Parsed> parsed = new ArrayList<>();
    String header = reader.readLine();
    if (header == null) {
      parsed.add(new Parsed(1, null, List.of(new FieldProblem("line", "is missing: the header row"))));
      return new Read(parsed, 0);
    }
    List<String> names = fields(header.replace("\uFEFF", "")).stream().map(n -> n.trim().toLowerCase(Locale.ROOT))
        .toList();
    List<String> missing = REQUIRED.stream().filter(n -> !names.contains(n)).toList();
    if (!missing.isEmpty() || !(names.contains("value") || names.contains("samples"))) {
      parsed.add(new Parsed(1, null, List.of(new FieldProblem("header", "must name the columns " + String.join(", ",
          REQUIRED) + " and value or samples" + (missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing))))));
      return new Read(parsed, 0);
    }
    Map<Key, Building> runs = new LinkedHashMap<>();
    long number = 1;
    long read = 0;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      number++;
      if (number > maxLines) {
        parsed.add(new Parsed(number, null, List.of(new FieldProblem("line", "and the lines after it were not read:"
            + " an import takes at most " + maxLines + " lines"))));
        break;
      }
      read++;
      if (line.isBlank()) {
        continue;
      }
      String problem = line.length() > maxLineBytes ? "is too long" : row(names, fields(line), runs, number);
      if (problem != null) {
        parsed.add(new Parsed(number, null, List.of(new FieldProblem("line", problem))));
      }
    }
    runs.forEach((key, b) -> parsed.add(new Parsed(b.line, new RunUpload(runId(key).toString(), key.product(), key.version(),
        RunUpload.MachineInfo.named(key.machine()), b.suite, null, null, null, Map.of(),
        b.results.values().stream().map(Result::upload).toList(), List.of()), List.of())));
    parsed.sort(java.util.Comparator.comparingLong(Parsed::line));
    return new Read(parsed, read);
  }

  /** Adds one row to its run; the problem with the row, or null. */
  private static String row(List<String> names, List<String> values, Map<Key, Building> runs, long number) {
    Map<String, String> row = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      row.put(names.get(i), i < values.size() ? values.get(i).trim() : "");
    }
    for (String name : REQUIRED) {
      if (row.get(name).isEmpty()) {
        return "has no " + name;
      }
    }
    List<Double> samples = new ArrayList<>();
    String text = row.getOrDefault("samples", "").isEmpty() ? row.getOrDefault("value", "") : row.get("samples");
    for (String value : text.split("[\\s;]+")) {
      if (value.isEmpty()) {
        continue;
      }
      try {
        samples.add(Double.parseDouble(value));
      } catch (NumberFormatException e) {
        return "has '" + value + "' where a number belongs";
      }
    }
    if (samples.isEmpty()) {
      return "has no value or samples";
    }
    Key key = new Key(row.get("product"), row.get("machine"), row.get("version"), row.getOrDefault("run", ""));
    Building run = runs.computeIfAbsent(key, k -> new Building(number,
        row.getOrDefault("suite", "").isEmpty() ? "csv" : row.get("suite")));
    String fingerprint = row.get("benchmark") + '\u0000' + row.get("metric");
    Result result = run.results.computeIfAbsent(fingerprint, f -> new Result(row.get("benchmark"), row.get("metric")));
    result.unit = row.get("unit");
    result.direction = row.get("direction");
    result.samples.addAll(samples);
    return null;
  }

  static UUID runId(Key key) {
    return UUID.nameUUIDFromBytes(String.join("\u0000", "perftrack-csv", key.product(), key.machine(),
        key.version(), key.run()).getBytes(StandardCharsets.UTF_8));
  }

  /** One CSV record: commas separate, double quotes quote, a doubled quote inside quotes is a quote. */
  static List<String> fields(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else if (c != '\r') {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }
}
