package org.perftrack.agent.suite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.perftrack.wire.RunUpload;

/**
 * One benchmark of the suite: which compiled program runs it, with which arguments, and what its
 * primary figure means.
 *
 * @param program the C program (source {@code program + ".c"}) that measures it
 * @param args extra arguments after the mode and count (buffer size, script name)
 * @param unit the unit of the primary figure: ns, us, s (per operation) or MB/s
 */
public final class Benchmark {
  private final String name;
  private final String program;
  private final List<String> args;
  private final String unit;
  private final String description;

  public Benchmark(String name, String program, List<String> args, String unit, String description) {
    args = Collections.unmodifiableList(new ArrayList<>(args));
    this.name = name;
    this.program = program;
    this.args = args;
    this.unit = unit;
    this.description = description;
  }

  public String name() {
    return name;
  }

  public String program() {
    return program;
  }

  public List<String> args() {
    return args;
  }

  public String unit() {
    return unit;
  }

  public String description() {
    return description;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Benchmark)) {
      return false;
    }
    Benchmark o = (Benchmark) other;
    return Objects.equals(name, o.name) && Objects.equals(program, o.program) && Objects.equals(args, o.args)
        && Objects.equals(unit, o.unit) && Objects.equals(description, o.description);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, program, args, unit, description);
  }

  @Override
  public String toString() {
    return "Benchmark[name=" + name + ", program=" + program + ", args=" + args + ", unit=" + unit
        + ", description=" + description + "]";
  }

  public static final String TIME_PER_OP = "time-per-op";
  public static final String BANDWIDTH = "bandwidth";
  public static final String CTX_SWITCHES = "ctx-switches-per-op";
  public static final String USER_CPU = "user-cpu-per-op";
  public static final String SYS_CPU = "sys-cpu-per-op";

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
