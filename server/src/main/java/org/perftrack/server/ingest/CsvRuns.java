package org.perftrack.server.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.Quantities;
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
 *
 * <p>Size: {@code read} and {@code row} (about 50 and 45 lines) are the CSV layout's parsing, column by column.
 */
final class CsvRuns {

  static final List<String> REQUIRED = List.of("product", "machine", "version", "benchmark", "metric", "unit",
      "direction");

  /** A run assembled from rows, numbered by its first row's line, and the length of its rows; or a line's problem. */
  record Parsed(long line, RunUpload run, List<FieldProblem> problems, long bytes) {

    Parsed(long line, RunUpload run, List<FieldProblem> problems) {
      this(line, run, problems, 0);
    }
  }

  /** The runs and problems of a file, and how many lines after the header were read. */
  record Read(List<Parsed> parsed, long lines) {}

  private record Key(String product, String machine, String version, String run) {}

  private static final class Building {
    final long line;
    final String suite;
    final Map<String, Result> results = new LinkedHashMap<>();
    long bytes;

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

  static Read read(InputStream in, int maxLineBytes, long maxLines) {
    List<Parsed> parsed = new ArrayList<>();
    long read = read(in, maxLineBytes, maxLines, Long.MAX_VALUE, parsed::add);
    parsed.sort(java.util.Comparator.comparingLong(Parsed::line));
    return new Read(parsed, read);
  }

  /**
   * Reads a file as a stream, giving each bad line's problem and each run to {@code out} as soon as it is known, and
   * returns how many lines after the header were read. The runs being assembled hold their rows' text (about); when
   * it passes {@code maxHeldBytes} they are all given out, so a file of any length takes bounded memory. A row of
   * a run given out before is then a bad line: beyond that size a run's rows must be together in the file.
   */
  static long read(InputStream in, int maxLineBytes, long maxLines, long maxHeldBytes, Consumer<Parsed> out) {
    NdjsonLines lines = new NdjsonLines(in, maxLineBytes); // a line with no end is not read whole
    Map<Key, Building> runs = new LinkedHashMap<>();
    boolean[] broke = {false};
    NdjsonLines.Line first = next(lines, 0, runs, out, broke);
    if (first == null) {
      if (!broke[0]) {
        out.accept(new Parsed(1, null, List.of(new FieldProblem("line", "is missing: the header row"))));
      }
      return 0;
    }
    String header = first.tooLong() ? "" : new String(first.bytes(), StandardCharsets.UTF_8);
    List<String> names = fields(header.replace("\uFEFF", "")).stream().map(n -> n.trim().toLowerCase(Locale.ROOT))
        .toList();
    List<String> missing = REQUIRED.stream().filter(n -> !names.contains(n)).toList();
    if (!missing.isEmpty() || !(names.contains("value") || names.contains("samples"))) {
      out.accept(new Parsed(1, null, List.of(new FieldProblem("header", "must name the columns " + String.join(", ",
          REQUIRED) + " and value or samples" + (missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing))))));
      return 0;
    }
    Map<Key, Long> givenOut = new HashMap<>();
    long held = 0;
    long number = 1;
    long read = 0;
    for (NdjsonLines.Line next = next(lines, number, runs, out, broke); next != null;
        next = next(lines, number, runs, out, broke)) {
      number++;
      if (number > maxLines) {
        out.accept(new Parsed(number, null, List.of(new FieldProblem("line", "and the lines after it were not read:"
            + " an import takes at most " + Quantities.count(maxLines) + " lines"))));
        break;
      }
      read++;
      if (next.blank() && !next.tooLong()) {
        continue;
      }
      String line = next.tooLong() ? null : new String(next.bytes(), StandardCharsets.UTF_8);
      String problem = line == null ? "is too long" : row(names, line, runs, givenOut, number);
      if (problem != null) {
        out.accept(new Parsed(number, null, List.of(new FieldProblem("line", problem))));
        continue;
      }
      held += line.length();
      if (held > maxHeldBytes) {
        giveOut(runs, givenOut, out);
        held = 0;
      }
    }
    giveOut(runs, givenOut, out);
    return read;
  }

  /** The next line; null at the end, or where the body broke off (reported; the runs being assembled are dropped). */
  private static NdjsonLines.Line next(NdjsonLines lines, long number, Map<Key, Building> runs, Consumer<Parsed> out,
      boolean[] broke) {
    try {
      return lines.next();
    } catch (IOException e) {
      broke[0] = true;
      runs.clear(); // they may miss rows that did not arrive
      out.accept(new Parsed(number + 1, null, List.of(new FieldProblem("body", "broke off in this line ("
          + e.getMessage() + "): this line and the ones after it were not read, nor the runs that had rows"
          + " before it; send the file again (what is stored is found unchanged)"))));
      return null;
    }
  }

  /** The runs being assembled, in the order of their first rows, as runs; they are forgotten but for their keys. */
  private static void giveOut(Map<Key, Building> runs, Map<Key, Long> givenOut, Consumer<Parsed> out) {
    runs.forEach((key, b) -> {
      givenOut.put(key, b.line);
      out.accept(new Parsed(b.line, new RunUpload(runId(key).toString(), key.product(), key.version(),
          RunUpload.MachineInfo.named(key.machine()), b.suite, null, null, null, Map.of(),
          b.results.values().stream().map(Result::upload).toList(), List.of()), List.of(), b.bytes));
    });
    runs.clear();
  }

  /** Adds one row to its run; the problem with the row, or null. */
  private static String row(List<String> names, String line, Map<Key, Building> runs, Map<Key, Long> givenOut,
      long number) {
    List<String> values = fields(line);
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
    Long earlier = givenOut.get(key);
    if (earlier != null) {
      return "belongs to the run of line " + earlier + ", which was read to its end already: in a file this large,"
          + " the rows of one run (product, machine, version, run) must follow each other";
    }
    Building run = runs.computeIfAbsent(key, k -> new Building(number,
        row.getOrDefault("suite", "").isEmpty() ? "csv" : row.get("suite")));
    String fingerprint = row.get("benchmark") + '\u0000' + row.get("metric");
    Result result = run.results.computeIfAbsent(fingerprint, f -> new Result(row.get("benchmark"), row.get("metric")));
    result.unit = row.get("unit");
    result.direction = row.get("direction");
    result.samples.addAll(samples);
    run.bytes += line.length();
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
