package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code vitest bench --outputJson FILE} (tinybench underneath): each benchmark is its group's
 * {@code fullName} and its {@code name} ({@code math.bench.ts > sort > toSorted}); times are milliseconds per
 * iteration. vitest writes no raw samples (an empty or missing {@code samples}): its statistics become a
 * summary-only result {@code time} (n = {@code sampleCount}, mean, sd, min, median, max). A file that does carry
 * samples gives them as samples.
 */
final class VitestFormat extends JsonFormat {

  static final String NAME = "vitest";

  VitestFormat() {
    super(NAME, "an object with \"files\", each with \"groups\" of \"benchmarks\" (vitest bench --outputJson)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    boolean summaries = false;
    JsonNode files = root.get("files");
    for (int f = 0; f < files.size(); f++) {
      JsonNode groups = JsonInput.requireArray(files.get(f).get("groups"), sourceName, "files[" + f + "].groups");
      for (int g = 0; g < groups.size(); g++) {
        String at = "files[" + f + "].groups[" + g + "]";
        String group = JsonInput.text(groups.get(g).get("fullName"), sourceName, at + ".fullName");
        JsonNode benchmarks = JsonInput.requireArray(groups.get(g).get("benchmarks"), sourceName, at + ".benchmarks");
        for (int b = 0; b < benchmarks.size(); b++) {
          summaries |= addBenchmark(run, group, benchmarks.get(b), at + ".benchmarks[" + b + "]");
        }
      }
    }
    if (summaries) {
      run.note("vitest writes statistics, not raw samples: summary-only results, which detection weighs less");
    }
  }

  private static boolean addBenchmark(ForeignRun run, String group, JsonNode b, String at) throws FormatException {
    String source = run.source();
    String name = group + " > " + JsonInput.text(b.get("name"), source, at + ".name");
    if (b.path("samples").isArray() && !b.get("samples").isEmpty()) {
      run.add(name, "time", "ms", LOWER_IS_BETTER, JsonInput.numbers(b.get("samples"), source, at + ".samples"));
      return false;
    }
    run.addSummary(name, "time", "ms", LOWER_IS_BETTER, new ForeignRun.Stats(
        (int) JsonInput.number(b.get("sampleCount"), source, at + ".sampleCount"),
        JsonInput.number(b.get("mean"), source, at + ".mean"), optional(b, "sd", source, at),
        optional(b, "min", source, at), optional(b, "median", source, at), optional(b, "max", source, at)));
    return true;
  }

  private static Double optional(JsonNode b, String field, String source, String at) throws FormatException {
    return b.hasNonNull(field) ? JsonInput.number(b.get(field), source, at + "." + field) : null;
  }
}
