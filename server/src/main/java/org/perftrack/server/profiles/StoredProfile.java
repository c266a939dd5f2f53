package org.perftrack.server.profiles;

import java.time.Instant;
import java.util.List;

/**
 * A profile as the agent sent it and the table keeps it: one benchmark at one version on one machine, per operation.
 *
 * @param operations the operations between the two traced iteration counts (the slope's denominator)
 * @param missing the tools that were missing or not permitted, each with why; their parts are empty
 * @param rawSyscalls true when the strace table is kept ({@code /api/v1/profiles/{id}/raw/syscalls})
 * @param rawFunctions true when perf's top functions are kept ({@code /api/v1/profiles/{id}/raw/functions})
 */
record StoredProfile(long id, long jobId, String product, String machine, String version, String benchmark,
    long operations, List<Syscall> syscalls, List<Counter> counters, List<Function> functions, List<String> missing,
    boolean rawSyscalls, boolean rawFunctions, Instant createdAt) {

  /** Calls, errors per operation and the share of traced system-call time. */
  record Syscall(String name, double callsPerOp, double errorsPerOp, double timeShare) {}

  /** A resource counter per operation (context switches, page faults, CPU µs). */
  record Counter(String name, double perOp) {}

  /** A function's share of the sampled CPU time. */
  record Function(String name, String module, double selfShare) {}

  double counter(String name) {
    return counters.stream().filter(c -> c.name().equals(name)).mapToDouble(Counter::perOp).findFirst().orElse(Double.NaN);
  }

  Syscall syscall(String name) {
    return syscalls.stream().filter(s -> s.name().equals(name)).findFirst().orElse(new Syscall(name, 0, 0, 0));
  }
}
