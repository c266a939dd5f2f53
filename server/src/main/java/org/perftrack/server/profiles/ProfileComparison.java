package org.perftrack.server.profiles;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/regressions/{id}/profile} and the "Why" card: the difference of the profiles of
 * the regression's two versions, per operation.
 *
 * @param sentence what changed, in one sentence (null until both versions are profiled)
 * @param syscalls every system call either version makes, the largest change first
 * @param functions the functions whose share of CPU time grew, the one that explains most of the slowdown first
 * @param missing what could not be measured (a tracer missing or not permitted), for either version
 * @param raw the raw tracer output kept, to download
 * @param reason why the state is failed or impossible
 */
public record ProfileComparison(ProfileStatus status, String machine, String benchmark, String baselineVersion,
    String version, String sentence, List<SyscallChange> syscalls, List<CounterChange> counters,
    List<FunctionChange> functions, List<String> missing, Long baselineProfileId, Long versionProfileId,
    List<RawOutput> raw, String reason) {

  /** Raw tracer output kept with one of the two profiles: {@code part} syscalls (strace) or functions (perf). */
  public record RawOutput(String version, String part, long profileId) {

    public String api() {
      return "/api/v1/profiles/" + profileId + "/raw/" + part;
    }

    public String file() {
      return "/profiles/" + profileId + "/" + part + ".txt";
    }

    public String label() {
      return ("syscalls".equals(part) ? "system calls" : "CPU profile") + " of " + version;
    }
  }

  /** {@code change}: appeared, vanished, changed or same; counts are exact, so a change of one call is certain. */
  public record SyscallChange(String name, double perOpBaseline, double perOpVersion, double timeShareBaseline,
      double timeShareVersion, String change) {}

  public record CounterChange(String name, double perOpBaseline, double perOpVersion) {}

  /** {@code explains}: the part of the growth in CPU time per operation that this function's growth accounts for. */
  public record FunctionChange(String name, String module, double selfShareBaseline, double selfShareVersion,
      double explains) {}

  static ProfileComparison state(ProfileStatus status, String machine, String benchmark, String baseline,
      String version, String reason) {
    return new ProfileComparison(status, machine, benchmark, baseline, version, null, List.of(), List.of(), List.of(),
        List.of(), null, null, List.of(), reason);
  }

  public boolean done() {
    return status == ProfileStatus.DONE;
  }

  /** The system calls that appeared, vanished or changed (the card's first rows). */
  public List<SyscallChange> changedSyscalls() {
    return syscalls.stream().filter(s -> !"same".equals(s.change())).toList();
  }

  /** The calls both versions make as often, most frequent first, at most {@code limit}. */
  public List<SyscallChange> sameSyscalls(int limit) {
    return syscalls.stream().filter(s -> "same".equals(s.change()) && s.perOpVersion() >= 0.005)
        .sorted(java.util.Comparator.comparingDouble(SyscallChange::perOpVersion).reversed()).limit(limit).toList();
  }

  /** Who may ask for it (again): none yet, done, failed; not while a job waits or runs, nor when impossible. */
  public boolean askable() {
    return status == ProfileStatus.NONE || status == ProfileStatus.DONE || status == ProfileStatus.FAILED;
  }
}
