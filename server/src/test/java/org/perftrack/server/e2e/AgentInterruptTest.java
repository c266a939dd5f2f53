package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;

/** Ctrl-C (SIGINT/SIGTERM) on a real agent process: finished benchmarks are spooled, children are ended. */
class AgentInterruptTest {

  @TempDir
  Path home;

  @Test
  void interruptedRunSpoolsWhatFinishedAndLeavesNoBenchmarkRunning() throws Exception {
    Path spool = home.resolve("spool");
    Process agent = AgentProcess.builder(home, "run", "--product", "cygwin", "--server", "http://127.0.0.1:9",
        "--token", "t", "--spool", spool.toString(), "--benchmarks", "null-call,configure,fork",
        "--repetitions", "5", "--scale", "0.4").start();
    List<ProcessHandle> children = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!logOf(home).contains("] configure") && System.nanoTime() < deadline && agent.isAlive()) {
      agent.descendants().forEach(children::add);
      Thread.sleep(20);
    }
    agent.descendants().forEach(children::add);

    agent.destroy();

    assertThat(agent.waitFor(60, TimeUnit.SECONDS)).as(logOf(home)).isTrue();
    assertThat(children).as("benchmark processes seen while running").isNotEmpty();
    long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < settle) {
      Thread.sleep(50); // a killed benchmark's helper child exits when its pipe closes
    }
    assertThat(children).filteredOn(ProcessHandle::isAlive)
        .extracting(c -> c.info().commandLine().orElse("?")).isEmpty();
    List<Path> runs = AgentProcess.waiting(spool);
    assertThat(runs).as(logOf(home)).hasSize(1);
    RunUpload run = Json.MAPPER.readValue(runs.get(0).toFile(), RunUpload.class);
    assertThat(run.attributes()).containsEntry("interrupted", "true");
    assertThat(run.results()).extracting(RunUpload.ResultUpload::benchmark).contains("null-call")
        .doesNotContain("configure");
    assertThat(run.failures()).extracting(RunUpload.BenchmarkFailure::benchmark).contains("configure", "fork");
  }

  private static String logOf(Path home) throws Exception {
    try (Stream<Path> files = Files.list(home)) {
      StringBuilder all = new StringBuilder();
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("agent-")).toList()) {
        all.append(Files.readString(f));
      }
      return all.toString();
    }
  }
}
