package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rust's built-in {@code #[bench]} harness ({@code cargo bench} with libtest, nightly or
 * {@code RUSTC_BOOTSTRAP=1}): {@code test NAME ... bench: 1,234 ns/iter (+/- 56)}. libtest prints one figure per
 * benchmark, the median of its samples, and no samples: it becomes a one-sample result
 * {@code time-per-iteration} in the unit printed (ns, µs, ms or s); {@code = N MB/s} (from {@code b.bytes})
 * becomes {@code throughput}. The run's note says that each figure is a median. {@code FAILED} benchmarks are
 * failures; ignored ones are left out. A file cut inside its last line keeps the lines before it and notes which line
 * it left out. Criterion's text output is not this: send its folder.
 */
final class CargoBenchFormat extends TextFormat {

  static final String NAME = "cargo-bench";

  private static final Pattern RESULT = Pattern.compile(
      "^test (\\S.*?)\\s+\\.\\.\\. bench:\\s+([0-9,.]+) (\\S+)/iter \\(\\+/- ([0-9,.]+)\\)(?: = ([0-9,.]+) MB/s)?\\s*$");
  private static final Pattern FAILED = Pattern.compile("^test (\\S.*?)\\s+\\.\\.\\. FAILED\\s*$");
  private static final Map<String, String> UNITS = Text.map("ns", "ns", "µs", "us", "μs", "us", "us", "us", "ms", "ms", "s", "s");

  CargoBenchFormat() {
    super(NAME, "lines like 'test x ... bench: 1,234 ns/iter (+/- 56)' (cargo bench with libtest)");
  }

  @Override
  boolean isResultLine(String line) {
    return line.startsWith("test ") && line.contains(" ...");
  }

  /** One benchmark a line: a file cut inside its last line keeps the benchmarks before it. */
  @Override
  boolean keepsWholeLines() {
    return true;
  }

  @Override
  void read(List<String> lines, ForeignRun run, String sourceName) throws FormatException {
    int results = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith(CUT)) {
        run.note(line.substring(CUT.length()));
        continue;
      }
      Matcher failed = FAILED.matcher(line);
      if (failed.matches()) {
        run.fail(failed.group(1), "FAILED (line " + (i + 1) + ")");
        continue;
      }
      Matcher m = RESULT.matcher(line);
      if (!m.matches()) {
        if (line.startsWith("test ") && line.contains("bench:")) {
          throw new FormatException(sourceName + ": line " + (i + 1) + " is not a libtest bench line: '" + line + "'");
        }
        continue;
      }
      String unit = UNITS.get(m.group(3));
      if (unit == null) {
        throw new FormatException(sourceName + ": line " + (i + 1) + ": unit '" + m.group(3) + "/iter', expected ns, µs, ms or s");
      }
      run.add(m.group(1), "time-per-iteration", unit, LOWER_IS_BETTER, Text.list(printedNumber(m.group(2), sourceName, i)));
      if (m.group(5) != null) {
        run.add(m.group(1), "throughput", "MB/s", HIGHER_IS_BETTER, Text.list(printedNumber(m.group(5), sourceName, i)));
      }
      results++;
    }
    if (results > 0) {
      run.note("libtest prints one median per benchmark, not its samples: one sample per benchmark and run");
    }
  }
}
