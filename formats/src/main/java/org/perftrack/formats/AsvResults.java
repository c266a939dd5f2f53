package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.Collections;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;

/** One asv result file read into a run: its rows, their parameter combinations, samples and units. */
final class AsvResults {

  private final ForeignRun run;
  private final String where;
  private final JsonNode descriptions;
  private boolean medians;

  AsvResults(ForeignRun run, String where, JsonNode descriptions) {
    this.run = run;
    this.where = where;
    this.descriptions = descriptions;
  }

  void read(JsonNode file) throws FormatException {
    JsonNode results = JsonInput.requireObject(file.get("results"), where, "results");
    JsonNode columns = file.path("result_columns");
    for (Map.Entry<String, JsonNode> benchmark : results.properties()) {
      Row row = columns.isArray() ? Row.of(columns, benchmark.getValue()) : Row.ofVersion1(benchmark.getValue());
      addBenchmark(benchmark.getKey(), row);
    }
    if (medians) {
      run.note("asv kept no samples (run with --record-samples to keep them): its result, a median, is one sample");
    }
    run.attribute("asv.commit_hash", file.path("commit_hash").asText(""));
    run.attribute("asv.env_name", file.path("env_name").asText(""));
    run.attribute("asv.python", file.path("python").asText(""));
    for (Map.Entry<String, JsonNode> p : file.path("params").properties()) {
      if (p.getValue().isValueNode()) {
        run.attribute("asv.params." + p.getKey(), p.getValue().asText());
      }
    }
    if (file.path("date").isNumber()) {
      run.startedAt(java.time.Instant.ofEpochMilli(file.get("date").longValue()));
    }
  }

  /** One benchmark's values: result per combination, the parameter lists, samples per combination. */
  private static final class Row {
    private final JsonNode result;
    private final JsonNode params;
    private final JsonNode samples;

    Row(JsonNode result, JsonNode params, JsonNode samples) {
      this.result = result;
      this.params = params;
      this.samples = samples;
    }

    JsonNode result() {
      return result;
    }

    JsonNode params() {
      return params;
    }

    JsonNode samples() {
      return samples;
    }


    static Row of(JsonNode columns, JsonNode row) {
      JsonNode result = null;
      JsonNode params = null;
      JsonNode samples = null;
      for (int i = 0; i < columns.size() && i < row.size(); i++) {
        String column = columns.get(i).asText();
        if (column.equals("result")) {
          result = row.get(i);
        } else if (column.equals("params")) {
          params = row.get(i);
        } else if (column.equals("samples")) {
          samples = row.get(i);
        }
      }
      return new Row(result, params, samples);
    }

    /** Format 1: a number, or {"result", "params", "samples", "stats"}. */
    static Row ofVersion1(JsonNode value) {
      if (!value.isObject()) {
        return new Row(wrap(value), null, null);
      }
      JsonNode result = value.get("result");
      return new Row(result != null && result.isArray() ? result : wrap(result), value.get("params"), value.get("samples"));
    }

    private static JsonNode wrap(JsonNode value) {
      return JsonInput.MAPPER.createArrayNode().add(value == null ? JsonInput.MAPPER.nullNode() : value);
    }
  }

  private void addBenchmark(String name, Row row) throws FormatException {
    if (row.result() == null || row.result().isNull()) {
      run.fail(name, "no result (the benchmark failed or was skipped)");
      return;
    }
    JsonNode results = row.result().isArray() ? row.result() : Row.wrap(row.result());
    List<String> combos = combinations(name, row.params());
    if (combos.size() != results.size()) {
      throw new FormatException(where + ": results." + name + " has " + results.size() + " results for "
          + combos.size() + " parameter combinations");
    }
    String[] unit = unit(name);
    for (int i = 0; i < combos.size(); i++) {
      String benchmark = name + combos.get(i);
      JsonNode value = results.get(i);
      if (value == null || value.isNull() || value.isNumber() && Double.isNaN(value.doubleValue())) {
        run.fail(benchmark, "no result for this combination (it failed or was skipped)");
        continue;
      }
      JsonNode samples = row.samples() != null && row.samples().isArray() ? row.samples().get(i) : null;
      String path = "results." + name + "[" + i + "]";
      if (samples != null && samples.isArray() && !samples.isEmpty()) {
        run.add(benchmark, unit[0], unit[1], LOWER_IS_BETTER, JsonInput.numbers(samples, where, path + ".samples"));
      } else {
        medians = true;
        run.add(benchmark, unit[0], unit[1], LOWER_IS_BETTER, Text.list(JsonInput.number(value, where, path)));
      }
    }
  }

  /** "" for a benchmark without parameters, else "(a=1, b='x')" per combination, the first parameter slowest. */
  private List<String> combinations(String name, JsonNode params) {
    List<String> combos = new ArrayList<>(Text.list(""));
    if (params == null || !params.isArray() || params.isEmpty()) {
      return combos;
    }
    JsonNode names = descriptions.path(name).path("param_names");
    List<List<String>> parts = new ArrayList<>(Text.list(Collections.emptyList()));
    for (int p = 0; p < params.size(); p++) {
      List<List<String>> next = new ArrayList<>();
      String label = names.has(p) ? names.get(p).asText() + "=" : "";
      for (List<String> prefix : parts) {
        for (JsonNode v : params.get(p)) {
          List<String> longer = new ArrayList<>(prefix);
          longer.add(label + v.asText());
          next.add(longer);
        }
      }
      parts = next;
    }
    return parts.stream().map(c -> "(" + String.join(", ", c) + ")").collect(Collectors.toList());
  }

  /** [metric, unit] from benchmarks.json's type and unit, or from the name's prefix without it. */
  private String[] unit(String name) {
    JsonNode description = descriptions.path(name);
    String type = description.path("type").asText("");
    String unit = description.path("unit").asText("");
    String last = name.substring(name.lastIndexOf('.') + 1);
    if (type.isEmpty()) {
      type = last.startsWith("time") ? "time" : last.startsWith("peakmem") ? "peakmemory"
          : last.startsWith("mem") ? "memory" : "track";
    }
    switch (type) {
      case "time":
        return new String[] {"time", "s"};
      case "memory":
        return new String[] {"memory", "B"};
      case "peakmemory":
        return new String[] {"peak-memory", "B"};
      default:
        return new String[] {"track", unit.isEmpty() || unit.equals("unit") ? "1" : unit.equals("seconds") ? "s"
            : unit.equals("bytes") ? "B" : unit};
    }
  }
}
