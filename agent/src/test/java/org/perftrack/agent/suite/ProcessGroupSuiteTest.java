package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;

/**
 * On Java 8 every script runs as a job of its own process group (so that a timeout can end it whole): the build,
 * the probes and benchmarks that fork and talk over pipes measure as they do otherwise. Forced here on Java 17.
 */
class ProcessGroupSuiteTest {

  @TempDir
  Path home;

  @Test
  void theSuiteMeasuresWithEachScriptInItsOwnProcessGroup() throws Exception {
    ShellRunner runner = new ShellRunner(Files::deleteIfExists, StandardCharsets.UTF_8,
        ShellRunner.TreeEnding.PROCESS_GROUP);
    List<Benchmark> benchmarks = Suite.select(List.of("null-call", "fork", "pipe-latency"));
    Target target = new Target("local", "6.1", new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false),
        home.resolve("work"));
    PreparedTarget prepared = new TargetSetup(runner).prepare(target, benchmarks);

    List<Measurements> measured = new SuiteSession(runner, new PrintWriter(new StringWriter()))
        .run(List.of(prepared), benchmarks, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60)));

    assertThat(prepared.buildFailures()).isEmpty();
    assertThat(measured.get(0).failures()).isEmpty();
    assertThat(measured.get(0).samples()).hasSize(3).allSatisfy((b, samples) -> assertThat(samples).hasSize(2));
  }
}
