package org.perftrack.agent.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The profile of one benchmark at one version, per operation: what {@code POST /api/v1/profiles} carries
 * besides the job, product and machine.
 */
public final class Profile {

  /** Raw tracer output is kept only capped: the {@code -c} table, perf's top functions. */
  public static final int MAX_RAW_CHARS = 64 * 1024;

  private final String benchmark;
  private final String version;
  private final long operations;
  private final List<Map<String, Object>> syscalls;
  private final List<Map<String, Object>> counters;
  private final List<Map<String, Object>> functions;
  private final List<String> missing;
  private final String rawSyscalls;
  private final String rawFunctions;

  Profile(String benchmark, String version, long operations, List<Map<String, Object>> syscalls,
      List<Map<String, Object>> counters, List<Map<String, Object>> functions, List<String> missing,
      String rawSyscalls, String rawFunctions) {
    this.benchmark = benchmark;
    this.version = version;
    this.operations = operations;
    this.syscalls = Collections.unmodifiableList(new ArrayList<>(syscalls));
    this.counters = Collections.unmodifiableList(new ArrayList<>(counters));
    this.functions = Collections.unmodifiableList(new ArrayList<>(functions));
    this.missing = Collections.unmodifiableList(new ArrayList<>(missing));
    this.rawSyscalls = cap(rawSyscalls);
    this.rawFunctions = cap(rawFunctions);
  }

  public String benchmark() {
    return benchmark;
  }

  public String version() {
    return version;
  }

  /** Operations between the two traced iteration counts: the slope's denominator. */
  public long operations() {
    return operations;
  }

  /** {@code {name, callsPerOp, errorsPerOp, timeShare}}, most calls first. */
  public List<Map<String, Object>> syscalls() {
    return syscalls;
  }

  /** {@code {name, perOp}}: context switches, page faults, user and system CPU (µs). */
  public List<Map<String, Object>> counters() {
    return counters;
  }

  /** {@code {name, module, selfShare}}, largest share first. */
  public List<Map<String, Object>> functions() {
    return functions;
  }

  /** The tools that were missing or not permitted, each with why; their parts are empty. */
  public List<String> missing() {
    return missing;
  }

  /** Calls per operation of one system call, 0 when it was not called. */
  public double callsPerOp(String syscall) {
    for (Map<String, Object> s : syscalls) {
      if (syscall.equals(s.get("name"))) {
        return ((Number) s.get("callsPerOp")).doubleValue();
      }
    }
    return 0;
  }

  /** A counter per operation, or NaN when it was not measured. */
  public double counter(String name) {
    for (Map<String, Object> c : counters) {
      if (name.equals(c.get("name"))) {
        return ((Number) c.get("perOp")).doubleValue();
      }
    }
    return Double.NaN;
  }

  /** The share of CPU time of the functions of one module (or of one function, by its name). */
  public double selfShare(String moduleOrFunction) {
    double share = 0;
    for (Map<String, Object> f : functions) {
      if (moduleOrFunction.equals(f.get("module")) || moduleOrFunction.equals(f.get("name"))) {
        share += ((Number) f.get("selfShare")).doubleValue();
      }
    }
    return share;
  }

  /** The body of {@code POST /api/v1/profiles}. */
  public Map<String, Object> toWire(Long job, String product, String machine) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("job", job);
    body.put("product", product);
    body.put("machine", machine);
    body.put("version", version);
    body.put("benchmark", benchmark);
    body.put("operations", operations);
    body.put("syscalls", syscalls);
    body.put("counters", counters);
    body.put("functions", functions);
    body.put("missing", missing);
    body.put("rawSyscalls", rawSyscalls);
    body.put("rawFunctions", rawFunctions);
    return body;
  }

  private static String cap(String raw) {
    if (raw == null || raw.length() <= MAX_RAW_CHARS) {
      return raw;
    }
    return raw.substring(0, MAX_RAW_CHARS - 20) + "\n[cut at 64 KiB]\n";
  }

  @Override
  public String toString() {
    return "Profile[" + benchmark + " " + version + ", syscalls=" + syscalls + ", counters=" + counters
        + ", functions=" + (functions.size() > 5 ? functions.subList(0, 5) : functions) + ", missing=" + missing + "]";
  }
}
