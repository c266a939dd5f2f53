package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.wire.RunUpload;

/**
 * The preload test double really slows what it says: each write()/sigprocmask() pays a round trip to a
 * helper thread, fork() a 2 ms sleep; getppid() is untouched. Two targets, plain and slowed, as a
 * maintainer would compare two versions.
 */
class SlowLayerTest {

  @TempDir
  static Path dir;

  static Path library;

  @BeforeAll
  static void compileTheLibrary() throws Exception {
    library = dir.resolve("slowlayer.so");
    Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-o", library.toString(),
        Path.of("src/test/native/slowlayer.c").toAbsolutePath().toString(), "-ldl", "-lpthread")
        .inheritIO().start();
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).isZero();
  }

  /** Runs the plain and the slowed version interleaved in one session, as the agent does. */
  private static List<RunUpload> measure(String name, int repetitions) throws Exception {
    Path config = Files.writeString(dir.resolve(name + ".yml"), """
        product: cygwin
        repetitions: %d
        scale: 0.05
        benchmarks: [null-call, write-64b, sigprocmask, fork]
        targets:
          - {version: 1.5.19-4, shell: [/bin/bash, -c]}
          - version: 1.5.24-2
            shell: [/bin/bash, -c]
            env: {LD_PRELOAD: %s, SLOWLAYER: "write,read,sigprocmask,fork", SLOWLAYER_FORK_US: "2000"}
        """.formatted(repetitions, library));
    CliRun result = CliRun.run(dir, "run", "--config", config.toString(), "--dry-run",
        "--work-dir", dir.resolve("work-" + name).toString(), "--step-timeout", "60");
    assertThat(result.exitCode()).as(result.err()).isZero();
    return Runs.parse(result.out());
  }

  /**
   * What holds on any machine, however loaded: the slowed calls are clearly slower (a thread round trip
   * per call: ×40 for write() on a quiet machine, still ×2.7 for sigprocmask with two busy loops on
   * two cores), and the round trip shows as context switches that the plain write does not have (a count,
   * not a time).
   */
  @Test
  void slowedCallsAreSlowerAndSwitchContext() throws Exception {
    List<RunUpload> runs = measure("effects", 3);
    RunUpload plain = Runs.ofVersion(runs, "1.5.19-4");
    RunUpload slow = Runs.ofVersion(runs, "1.5.24-2");
    assertThat(ratio(slow, plain, "write-64b")).isGreaterThan(1.5);
    assertThat(ratio(slow, plain, "sigprocmask")).isGreaterThan(1.5);
    assertThat(Runs.median(Runs.samples(slow, "write-64b", "ctx-switches-per-op"))).isGreaterThan(1.0);
    assertThat(Runs.median(Runs.samples(plain, "write-64b", "ctx-switches-per-op"))).isLessThan(0.5);
  }

  /**
   * How many µs the layer adds, and that the control stays put: a measurement of this machine, not run by
   * default (a busy machine wakes the sleeper late and slows the plain fork too). Run it with
   * {@code mvn -B -pl agent verify -Dperftrack.excludedGroups=none -Dgroups=machine-timing}.
   */
  @Test
  @Tag("machine-timing")
  void slowedCallsAreSeveralTimesSlowerForkPaysTheSleepAndTheControlIsNot() throws Exception {
    List<RunUpload> runs = measure("timing", 3);
    RunUpload plain = Runs.ofVersion(runs, "1.5.19-4");
    RunUpload slow = Runs.ofVersion(runs, "1.5.24-2");
    assertThat(ratio(slow, plain, "write-64b")).isGreaterThan(3);
    assertThat(ratio(slow, plain, "sigprocmask")).isGreaterThan(3);
    assertThat(ratio(slow, plain, "null-call")).isBetween(0.5, 2.0);
    double extra = median(slow, "fork") - median(plain, "fork");
    assertThat(extra).isBetween(1900.0, 10_000.0);
  }

  private static double median(RunUpload run, String benchmark) {
    return Runs.median(Runs.samples(run, benchmark, "time-per-op"));
  }

  private static double ratio(RunUpload slow, RunUpload plain, String benchmark) {
    return median(slow, benchmark) / median(plain, benchmark);
  }
}
