package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;

/** A measurement whose samples vary too much says so, and what to do about it; a steady one says nothing. */
class NoisyMeasurementTest {

  @Test
  void samplesThatVaryMoreThanTenPercentAreTooNoisyToTrust() {
    Measurements m = new Measurements(new PreparedTarget(new Target("local", "6.1",
        new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), Path.of("work")), Map.of(), Map.of()),
        Instant.parse("2026-01-01T00:00:00Z"));
    m.complete(Suite.select(List.of("fork")).get(0), samples(100, 140, 95, 160, 101));
    m.complete(Suite.select(List.of("null-call")).get(0), samples(20.0, 20.2, 19.9, 20.1, 20.0));
    StringWriter out = new StringWriter();

    ResultTable.print(new PrintWriter(out), m);

    assertThat(out.toString())
        .contains("NOISY fork: its samples vary by 24.4% (cv, above 10%)\n  its median is too noisy to trust: "
            + "measure again with more repetitions (--repetitions 10) or on a quieter machine")
        .doesNotContain("NOISY null-call");
  }

  @Test
  void severalNoisyBenchmarksAreListedAndWhatToDoIsSaidOnce() {
    Measurements m = new Measurements(new PreparedTarget(new Target("local", "6.1",
        new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), Path.of("work")), Map.of(), Map.of()),
        Instant.parse("2026-01-01T00:00:00Z"));
    m.complete(Suite.select(List.of("fork")).get(0), samples(100, 140, 95, 160, 101));
    m.complete(Suite.select(List.of("spawn")).get(0), samples(100, 150, 90, 170, 100));
    StringWriter out = new StringWriter();

    ResultTable.print(new PrintWriter(out), m);

    assertThat(out.toString()).contains("NOISY fork: its samples vary by", "NOISY spawn: its samples vary by",
        "their medians are too noisy to trust");
    assertThat(out.toString().split("too noisy to trust", -1)).hasSize(2);
  }

  @Test
  void aStricterThresholdFromTheCommandLineFlagsTheSameSamples() {
    Measurements m = new Measurements(new PreparedTarget(new Target("local", "6.1",
        new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), Path.of("work")), Map.of(), Map.of()),
        Instant.parse("2026-01-01T00:00:00Z"));
    m.complete(Suite.select(List.of("null-call")).get(0), samples(20.0, 20.2, 19.9, 20.1, 20.0));
    StringWriter out = new StringWriter();

    ResultTable.print(new PrintWriter(out), m, 0.005);

    assertThat(out.toString()).contains("NOISY null-call: its samples vary by 0.6% (cv, above 0.5%)");
  }

  /** A real session: the config's noisyCv is the threshold, and --noisy-cv beats it. */
  @Test
  void theConfigsThresholdFlagsARealSessionAndTheCommandLineOverridesIt(@TempDir Path home) throws Exception {
    Path config = Files.writeString(home.resolve("agent.yml"), """
        product: linux
        repetitions: 3
        scale: 0.02
        noisyCv: 0.001
        benchmarks: [null-call]
        targets:
          - {version: "6.1", shell: [/bin/bash, -c]}
        """);
    String[] args = {"run", "--config", config.toString(), "--dry-run", "--work-dir", home.resolve("work").toString(),
        "--step-timeout", "60"};

    CliRun strict = CliRun.run(home, args);
    CliRun lenient = CliRun.run(home, concat(args, "--noisy-cv", "1000000"));

    assertThat(strict.exitCode()).as(strict.err()).isZero();
    // timed samples never agree to a hundred-thousandth: the threshold of 0.001% flags them
    assertThat(strict.err()).contains("NOISY null-call: its samples vary by ").contains("(cv, above 0.001%)")
        .contains("--repetitions 10");
    assertThat(lenient.exitCode()).as(lenient.err()).isZero();
    assertThat(lenient.err()).contains("null-call").doesNotContain("NOISY");
  }

  @Test
  void aThresholdOfZeroIsAUsageErrorAndInTheConfigAnErrorNamingTheField(@TempDir Path home) throws Exception {
    CliRun option = CliRun.run(home, "run", "--product", "p", "--dry-run", "--noisy-cv", "0");
    Path config = Files.writeString(home.resolve("agent.yml"),
        "product: p\nnoisyCv: -5\ntargets:\n  - {version: '1', shell: [/bin/bash, -c]}\n");
    CliRun file = CliRun.run(home, "run", "--config", config.toString(), "--dry-run");

    assertThat(option.exitCode()).isEqualTo(2);
    assertThat(option.err()).contains("--noisy-cv must be above 0");
    assertThat(file.exitCode()).isEqualTo(1);
    assertThat(file.err()).contains("field 'noisyCv' must be above 0");
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static List<Sample> samples(double... values) {
    return java.util.Arrays.stream(values).mapToObj(v -> new Sample(v, 0, 0, 0)).toList();
  }
}
