package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.wire.RunUpload;

/** Real benchmarks compiled by the local gcc and run through bash, at a tiny scale. */
class SuiteRunTest {

  @TempDir
  Path home;

  @Test
  void localShellRunMeasuresRealBenchmarksWithSecondaryMetrics() {
    CliRun result = CliRun.run(home, "run", "--product", "linux", "--dry-run", "--scale", "0.02",
        "--repetitions", "3", "--benchmarks", "null-call,pipe-bw/4096", "--work-dir", home.resolve("work").toString(), "--step-timeout", "60");

    assertThat(result.exitCode()).as(result.err()).isZero();
    RunUpload run = Runs.parse(result.out()).get(0);
    assertThat(run.version()).isEqualTo(System.getProperty("os.version"));
    assertThat(run.suite()).isEqualTo("posix");
    assertThat(run.failures()).isEmpty();
    assertThat(run.attributes()).containsKeys("uname", "compiler", "cpu");
    assertThat(Runs.samples(run, "null-call", "time-per-op")).hasSize(3).allMatch(v -> v > 1 && v < 100_000);
    // any positive bandwidth: a loaded machine moved 0.5 MB/s through a pipe, the machine's speed is not the test
    assertThat(Runs.samples(run, "pipe-bw/4096", "bandwidth")).hasSize(3).allMatch(v -> v > 0);
    assertThat(run.results()).filteredOn(r -> r.benchmark().equals("pipe-bw/4096"))
        .extracting(RunUpload.ResultUpload::metric)
        .containsExactly("bandwidth", "ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op");
    assertThat(run.results()).filteredOn(r -> r.metric().equals("bandwidth"))
        .allMatch(r -> r.direction().equals(RunUpload.HIGHER_IS_BETTER) && r.unit().equals("MB/s"));
    assertThat(result.err()).contains("[ 1/2] null-call").contains("left").contains("median");
  }

  @Test
  void benchmarkThatDoesNotCompileIsReportedAndTheRestRunInterleaved() throws Exception {
    Path cc = home.resolve("picky-cc");
    Files.writeString(cc, "#!/bin/sh\ncase \"$*\" in *fork.c*) echo 'fork.c:1: error: no fork on this layer' >&2; exit 1;; esac\nexec gcc \"$@\"\n");
    Files.setPosixFilePermissions(cc, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path config = Files.writeString(home.resolve("agent.yml"), """
        product: cygwin
        repetitions: 2
        scale: 0.02
        benchmarks: [fork, sigprocmask]
        targets:
          - {version: 1.5.19-4, shell: [/bin/bash, -c]}
          - {version: 1.5.24-2, shell: [/bin/bash, -c], env: {CC: %s}}
        """.formatted(cc));

    CliRun result = CliRun.run(home, "run", "--config", config.toString(), "--dry-run",
        "--work-dir", home.resolve("work").toString(), "--step-timeout", "60");

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<RunUpload> runs = Runs.parse(result.out());
    RunUpload picky = Runs.ofVersion(runs, "1.5.24-2");
    assertThat(picky.failures()).singleElement().satisfies(f -> {
      assertThat(f.benchmark()).isEqualTo("fork");
      assertThat(f.message()).contains("does not compile").contains("no fork on this layer");
    });
    assertThat(Runs.samples(picky, "sigprocmask", "time-per-op")).hasSize(2);
    assertThat(Runs.samples(Runs.ofVersion(runs, "1.5.19-4"), "fork", "time-per-op")).hasSize(2);
    assertThat(runs).extracting(RunUpload::batch).doesNotContainNull().containsOnly(runs.get(0).batch());
    assertThat(sampleOrder(result.err(), "sigprocmask")).containsExactly("1.5.19-4 1", "1.5.24-2 1", "1.5.19-4 2", "1.5.24-2 2");
  }

  /** Target and sample number of each progress line of one benchmark, in console order. */
  private static List<String> sampleOrder(String console, String benchmark) {
    Matcher m = Pattern.compile("\\] " + benchmark + "\\s+(\\S+)\\s+sample (\\d+)/").matcher(console);
    List<String> order = new java.util.ArrayList<>();
    while (m.find()) {
      order.add(m.group(1) + " " + m.group(2));
    }
    return order;
  }
}
