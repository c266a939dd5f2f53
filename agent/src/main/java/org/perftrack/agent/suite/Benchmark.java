package org.perftrack.agent.suite;

import java.util.List;
import org.perftrack.formats.RunUpload;

/**
 * One benchmark of the suite: which compiled program runs it, with which arguments, and what its
 * primary figure means.
 *
 * @param program the C program (source {@code program + ".c"}) that measures it
 * @param args extra arguments after the mode and count (buffer size, script name)
 * @param unit the unit of the primary figure: ns, us, s (per operation) or MB/s
 */
public record Benchmark(String name, String program, List<String> args, String unit, String description) {

  public static final String TIME_PER_OP = "time-per-op";
  public static final String BANDWIDTH = "bandwidth";
  public static final String CTX_SWITCHES = "ctx-switches-per-op";
  public static final String USER_CPU = "user-cpu-per-op";
  public static final String SYS_CPU = "sys-cpu-per-op";

  public Benchmark {
    args = List.copyOf(args);
  }

  public boolean isBandwidth() {
    return "MB/s".equals(unit);
  }

  public String metric() {
    return isBandwidth() ? BANDWIDTH : TIME_PER_OP;
  }

  public String direction() {
    return isBandwidth() ? RunUpload.HIGHER_IS_BETTER : RunUpload.LOWER_IS_BETTER;
  }

  /** The unit of the CPU-time metrics: the benchmark's own time unit, microseconds for bandwidth. */
  public String cpuUnit() {
    return isBandwidth() ? "us" : unit;
  }
}
