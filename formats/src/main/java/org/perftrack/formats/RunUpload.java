package org.perftrack.formats;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One run as sent to {@code POST /api/v1/runs}: one version of a product measured on one machine.
 * This is the wire contract of DESIGN.md; the agent writes it, the server reads it, and the
 * converters of other tools' files produce it.
 *
 * @param attributes run-level environment (uname inside the target, compiler, CYGWIN variable, mount flags…)
 * @param failures benchmarks that could not be measured in this run (compile error, crash)
 */
public record RunUpload(
    String id,
    String product,
    String version,
    MachineInfo machine,
    String suite,
    String batch,
    Instant startedAt,
    Instant finishedAt,
    Map<String, String> attributes,
    List<ResultUpload> results,
    List<BenchmarkFailure> failures) {

  /** The machine a run was measured on; {@code attributes} hold anything else worth comparing (antivirus…). */
  public record MachineInfo(
      String name, String os, String cpu, Integer cores, Long memoryMb, Map<String, String> attributes) {

    public static MachineInfo named(String name) {
      return new MachineInfo(name, null, null, null, null, Map.of());
    }
  }

  /** The raw samples of one metric of one benchmark. {@code direction} is lower_is_better or higher_is_better. */
  public record ResultUpload(
      String benchmark, String metric, String unit, String direction, List<Double> samples) {}

  /** A benchmark of the suite that produced no samples in this run, and why. */
  public record BenchmarkFailure(String benchmark, String message) {}

  public static final String LOWER_IS_BETTER = "lower_is_better";
  public static final String HIGHER_IS_BETTER = "higher_is_better";
}
