package org.perftrack.agent.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.PreparedTarget;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.TargetSetup;

/**
 * Profiles of real processes: the suite's own programs, plain and under a preload library that changes one
 * thing each (a round trip to a helper thread in write(), a sleep in fork(), CPU burnt in lstat()), two targets
 * interleaved as a lab job runs them. Every effect asserted is a count, or a CPU share far above noise.
 */
class ProfileLayerTest {

  @TempDir
  static Path dir;

  static Path library;

  @BeforeAll
  static void compileTheLibrary() throws Exception {
    library = dir.resolve("profilelayer.so");
    Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O1", "-o", library.toString(),
        Path.of("src/test/native/profilelayer.c").toAbsolutePath().toString(), "-ldl", "-lpthread")
        .inheritIO().start();
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).isZero();
  }

  private static final class Result {
    final Map<String, Profile> plain = new LinkedHashMap<>();
    final Map<String, Profile> changed = new LinkedHashMap<>();
    String console;
  }

  /** Profiles the benchmarks in a plain target (1.0) and one with PROFILELAYER={@code layer} (2.0). */
  private static Result profile(String name, String layer, List<String> benchmarks, String strace, String perf)
      throws Exception {
    ShellRunner runner = new ShellRunner();
    TargetSetup setup = new TargetSetup(runner);
    List<Benchmark> selected = Suite.select(benchmarks);
    Map<String, String> env = new LinkedHashMap<>();
    if (layer != null) {
      env.put("LD_PRELOAD", library.toString());
      env.put("PROFILELAYER", layer);
    }
    List<PreparedTarget> targets = new ArrayList<>();
    targets.add(setup.prepare(new Target("plain", "1.0", new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false),
        dir.resolve(name + "-plain")), selected));
    targets.add(setup.prepare(new Target("changed", "2.0", new TargetShell(List.of("/bin/bash", "-c"), env, false),
        dir.resolve(name + "-changed")), selected));
    StringWriter console = new StringWriter();
    List<Profile> profiles = new Profiler(runner, new PrintWriter(console), strace, perf)
        .profile(targets, selected, 3, 0.05, Duration.ofMinutes(5));
    Result result = new Result();
    for (Profile p : profiles) {
      ("1.0".equals(p.version()) ? result.plain : result.changed).put(p.benchmark(), p);
    }
    result.console = console.toString();
    assertThat(profiles).as(result.console).hasSize(2 * selected.size());
    return result;
  }

  @Test
  void aRoundTripInWriteShowsAsTwoMoreReadsAndWritesAndContextSwitchesPerWrite() throws Exception {
    Result r = profile("trip", "write-trip", List.of("write-64b"), "strace", "perf");
    Profile plain = r.plain.get("write-64b");
    Profile trip = r.changed.get("write-64b");

    assertThat(plain.callsPerOp("write")).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.01));
    assertThat(trip.callsPerOp("write") - plain.callsPerOp("write")).isCloseTo(2.0,
        org.assertj.core.data.Offset.offset(0.01));
    assertThat(trip.callsPerOp("read") - plain.callsPerOp("read")).isCloseTo(2.0,
        org.assertj.core.data.Offset.offset(0.01));
    assertThat(switches(trip) - switches(plain)).as(trip.counters().toString()).isGreaterThan(1.0);
    assertThat(plain.missing()).isEmpty();
  }

  @Test
  void aSleepInForkShowsAsOneNanosleepPerFork() throws Exception {
    Result r = profile("sleep", "fork-sleep", List.of("fork"), "strace", "perf");
    Profile plain = r.plain.get("fork");
    Profile sleep = r.changed.get("fork");

    double sleeps = sleep.callsPerOp("clock_nanosleep") + sleep.callsPerOp("nanosleep");
    assertThat(sleeps).as(sleep.syscalls().toString()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.01));
    assertThat(plain.callsPerOp("clock_nanosleep") + plain.callsPerOp("nanosleep")).isZero();
  }

  /**
   * CPU burnt in lstat(): user CPU per file grows many times, the system calls stay exactly what they were, and
   * perf (permitted here, or the test says it is missing) puts the burning function of the library on top.
   */
  @Test
  void cpuBurntInLstatShowsAsUserCpuWithTheSameSystemCallsAndInThePerfShare() throws Exception {
    Result r = profile("burn", "lstat-burn", List.of("lstat-dir"), "strace", "perf");
    Profile plain = r.plain.get("lstat-dir");
    Profile burn = r.changed.get("lstat-dir");

    assertThat(burn.counter(Rusage.USER_US)).as(burn.counters().toString())
        .isGreaterThan(10 * Math.max(plain.counter(Rusage.USER_US), 1.0));
    for (Map<String, Object> s : burn.syscalls()) {
      String call = (String) s.get("name");
      assertThat(Math.abs(burn.callsPerOp(call) - plain.callsPerOp(call))).as(call).isLessThan(0.01);
    }
    assertThat(burn.callsPerOp("newfstatat") + burn.callsPerOp("lstat")).isCloseTo(1.0,
        org.assertj.core.data.Offset.offset(0.01));
    if (burn.missing().stream().anyMatch(m -> m.startsWith("perf:"))) {
      assertThat(burn.functions()).isEmpty();
      assertThat(burn.missing()).anyMatch(m -> m.startsWith("perf: not"));
    } else {
      assertThat(burn.selfShare("profilelayer_burn")).as(burn.functions().toString()).isGreaterThan(0.5);
      assertThat(plain.selfShare("profilelayer_burn")).isZero();
    }
  }

  @Test
  void anAaPairDiffersByLessThanHalfACallPerOperationInEverySystemCall() throws Exception {
    Result r = profile("aa", null, List.of("write-64b", "fork"), "strace", "perf");
    for (String benchmark : List.of("write-64b", "fork")) {
      Profile a = r.plain.get(benchmark);
      Profile b = r.changed.get(benchmark);
      assertThat(a.syscalls()).isNotEmpty();
      for (Profile p : List.of(a, b)) {
        for (Map<String, Object> s : p.syscalls()) {
          String call = (String) s.get("name");
          assertThat(Math.abs(a.callsPerOp(call) - b.callsPerOp(call))).as(benchmark + " " + call).isLessThan(0.5);
        }
      }
    }
  }

  @Test
  void aMachineWithoutTheTracersGetsAProfileThatSaysWhatWasMissing() throws Exception {
    Result r = profile("none", "write-trip", List.of("write-64b"), "no-such-strace", "no-such-perf");
    Profile trip = r.changed.get("write-64b");

    assertThat(trip.missing()).containsExactly("strace: not installed on this machine",
        "perf: not installed on this machine");
    assertThat(trip.syscalls()).isEmpty();
    assertThat(trip.functions()).isEmpty();
    assertThat(switches(trip)).isGreaterThan(1.0);
  }

  private static double switches(Profile p) {
    return p.counter(Rusage.VOLUNTARY) + p.counter(Rusage.INVOLUNTARY);
  }
}
