package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * hyperfine's {@code --export-json}: one benchmark per command, named after the command or its
 * {@code --command-name}; each run's wall time is a sample. A command benchmarked twice in one file
 * ({@code hyperfine true 'sleep 1' true}) is kept twice: the second is named {@code "true #2"}, since the
 * two measurements were taken at different moments and may differ for a reason the user wants to see.
 * hyperfine exports user and system time only as means over all runs: they become summary-only secondary
 * metrics {@code user-time} and {@code system-time} (n = the number of runs).
 */
final class HyperfineFormat extends JsonFormat {

  static final String NAME = "hyperfine";

  HyperfineFormat() {
    super(NAME, "an object with a \"results\" array of commands (hyperfine --export-json)");
  }

  @Override
  void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException {
    JsonNode results = root.get("results");
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < results.size(); i++) {
      String at = "results[" + i + "]";
      String command = JsonInput.text(results.get(i).get("command"), run.source(), at + ".command");
      int occurrence = seen.merge(command, 1, Integer::sum);
      addCommand(run, results.get(i), at, occurrence == 1 ? command : command + " #" + occurrence);
    }
  }

  private static void addCommand(ForeignRun run, JsonNode result, String at, String command) throws FormatException {
    String source = run.source();
    run.add(command, "wall-time", "s", LOWER_IS_BETTER, JsonInput.numbers(result.get("times"), source, at + ".times"));
    int runs = result.get("times").size();
    for (String field : new String[] {"user", "system"}) {
      if (result.hasNonNull(field)) {
        run.addSummary(command, field + "-time", "s", LOWER_IS_BETTER, new ForeignRun.Stats(runs,
            JsonInput.number(result.get(field), source, at + "." + field), null, null, null, null));
      }
    }
    if (result.has("memory_usage_byte")) {
      // hyperfine ≥ 1.19 records each run's peak memory
      run.add(command, "max-rss", "B", LOWER_IS_BETTER,
          JsonInput.numbers(result.get("memory_usage_byte"), source, at + ".memory_usage_byte"));
    }
    if (result.path("exit_codes").isArray()) {
      noteFailures(run, command, result.get("exit_codes"));
    }
  }

  /**
   * Runs that exited non-zero were timed all the same (hyperfine -i); a reader of the run should know.
   * hyperfine writes null for a run killed by a signal.
   */
  private static void noteFailures(ForeignRun run, String command, JsonNode exitCodes) {
    TreeSet<String> nonZero = new TreeSet<>();
    int failed = 0;
    for (JsonNode code : exitCodes) {
      if (!code.isNumber() || code.longValue() != 0) {
        nonZero.add(code.isNumber() ? String.valueOf(code.longValue()) : "signal");
        failed++;
      }
    }
    if (failed > 0) {
      run.note("'" + command + "' exited non-zero in " + failed + " of " + exitCodes.size() + " runs (exit codes "
          + String.join(", ", nonZero) + ")");
    }
  }
}
