package org.perftrack.server.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.profiles.StoredProfile.Counter;
import org.perftrack.server.profiles.StoredProfile.Function;
import org.perftrack.server.profiles.StoredProfile.Syscall;

/** The difference of two versions' profiles, in figures like those the agent measured of the preload layers. */
class ProfileDiffTest {

  private static StoredProfile profile(long id, String version, String benchmark, List<Syscall> syscalls,
      List<Counter> counters, List<Function> functions, List<String> missing) {
    return new StoredProfile(id, 1, "cygwin", "lab-01", version, benchmark, 1000, syscalls, counters, functions,
        missing, true, !functions.isEmpty(), Instant.EPOCH);
  }

  private static List<Counter> counters(double voluntary, double involuntary, double user, double system) {
    return List.of(new Counter(ProfileDiff.VOLUNTARY, voluntary), new Counter(ProfileDiff.INVOLUNTARY, involuntary),
        new Counter("minor-page-faults", 0.0), new Counter(ProfileDiff.USER_US, user),
        new Counter(ProfileDiff.SYS_US, system));
  }

  @Test
  void aRoundTripToAnotherThreadIsSaidInOneSentenceWithItsCallsAndSwitches() {
    StoredProfile base = profile(1, "1.5.19-4", "write-64b", List.of(new Syscall("write", 1.0, 0, 1.0),
        new Syscall("lseek", 0.00006, 0, 0)), counters(0.0, 0.01, 0.1, 1.0), List.of(), List.of());
    StoredProfile head = profile(2, "1.5.24-2", "write-64b", List.of(new Syscall("write", 3.0, 0, 0.4),
        new Syscall("read", 2.0, 0, 0.5), new Syscall("lseek", 0.00006, 0, 0)), counters(1.0, 1.0, 1.0, 9.0),
        List.of(), List.of());

    ProfileComparison diff = ProfileDiff.compare(base, head);

    assertThat(diff.sentence()).isEqualTo("each write() in 1.5.24-2 makes 2 more write() and 2 more read() calls and"
        + " 2 more context switches, and uses 8 µs more system CPU — a round trip to another thread");
    assertThat(diff.syscalls()).extracting(ProfileComparison.SyscallChange::name).containsExactly("write", "read",
        "lseek");
    assertThat(diff.syscalls()).extracting(ProfileComparison.SyscallChange::change).containsExactly("changed",
        "appeared", "same");
    assertThat(diff.counters()).extracting(ProfileComparison.CounterChange::name).contains(ProfileDiff.VOLUNTARY);
  }

  @Test
  void aSleepInForkIsOneMoreNanosleepPerFork() {
    StoredProfile base = profile(1, "1.0", "fork", List.of(new Syscall("clone", 1.0, 0, 0.7),
        new Syscall("wait4", 1.0, 0, 0.3)), counters(1.0, 0.1, 20, 80), List.of(), List.of());
    StoredProfile head = profile(2, "2.0", "fork", List.of(new Syscall("clone", 1.0, 0, 0.6),
        new Syscall("wait4", 1.0, 0, 0.2), new Syscall("clock_nanosleep", 1.0, 0, 0.2)), counters(2.0, 0.1, 20, 80),
        List.of(), List.of());

    assertThat(ProfileDiff.compare(base, head).sentence()).isEqualTo("each fork() in 2.0 makes 1 more"
        + " clock_nanosleep() calls and 1 more context switches — it sleeps");
  }

  /** 40 µs more user CPU per file, 93 % of the version's 42 µs in the burning function: it explains 98 % of the 40. */
  @Test
  void cpuBurntWithTheSameCallsIsSaidWithTheFunctionThatExplainsIt() {
    List<Syscall> same = List.of(new Syscall("newfstatat", 1.0, 0, 1.0));
    StoredProfile base = profile(1, "1.7.5", "lstat-dir", same, counters(0, 0.001, 0.5, 1.5),
        List.of(new Function("__GI___fstatat64", "libc.so.6", 0.2), new Function("main", "lstat_dir", 0.05),
            new Function("entry_SYSCALL_64", "[kernel.kallsyms]", 0.75)), List.of());
    StoredProfile head = profile(2, "1.7.7", "lstat-dir", same, counters(0, 0.01, 40.5, 1.5),
        List.of(new Function("profilelayer_burn", "profilelayer.so", 0.93), new Function("main", "lstat_dir", 0.01),
            new Function("entry_SYSCALL_64", "[kernel.kallsyms]", 0.06)), List.of());

    ProfileComparison diff = ProfileDiff.compare(base, head);

    assertThat(diff.sentence()).isEqualTo("each lstat() in 1.7.7 uses 40 µs more user CPU with the same system calls,"
        + " 98% of it in profilelayer_burn (profilelayer.so)");
    assertThat(diff.functions()).hasSize(1);
    assertThat(diff.functions().get(0).selfShareBaseline()).isZero();
    assertThat(diff.syscalls()).extracting(ProfileComparison.SyscallChange::change).containsOnly("same");
  }

  @Test
  void anAaPairIsTheSameAndWhatWasNotMeasuredIsSaid() {
    List<Syscall> calls = List.of(new Syscall("write", 1.0, 0, 1.0), new Syscall("lseek", 0.0001, 0, 0));
    StoredProfile a = profile(1, "1.0", "write-64b", calls, counters(0.0, 0.02, 0.2, 1.1), List.of(),
        List.of("perf: not permitted here (perf_event_paranoid 3)"));
    StoredProfile b = profile(2, "1.0-rebuilt", "write-64b", calls, counters(0.0, 0.05, 0.25, 1.2), List.of(),
        List.of("perf: not permitted here (perf_event_paranoid 3)"));

    ProfileComparison diff = ProfileDiff.compare(a, b);

    assertThat(diff.sentence()).isEqualTo("the profiles of 1.0 and 1.0-rebuilt show the same system calls and"
        + " counters per operation (not measured: perf)");
    assertThat(diff.changedSyscalls()).isEmpty();
    assertThat(diff.missing()).containsExactly("perf: not permitted here (perf_event_paranoid 3) (1.0)",
        "perf: not permitted here (perf_event_paranoid 3) (1.0-rebuilt)");
    assertThat(diff.raw()).extracting(ProfileComparison.RawOutput::file).containsExactly("/profiles/1/syscalls.txt",
        "/profiles/2/syscalls.txt");
  }
}
