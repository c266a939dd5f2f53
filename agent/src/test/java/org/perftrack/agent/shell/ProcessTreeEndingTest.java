package org.perftrack.agent.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A timeout or Ctrl-C ends the benchmark with the children it forked, on Java 8 too: there the script runs
 * as its own process group, ended by the target's {@code kill} ({@code PROCESS_GROUP}, forced here on Java 17).
 */
class ProcessTreeEndingTest {

  /** A benchmark whose child outlives its parent unless the whole tree is ended. */
  private static final String FORKS = "{ sleep 300 & echo $! > child.pid; sleep 300; }";

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(ShellRunner.TreeEnding.class)
  void aTimeoutEndsTheForkedChild(ShellRunner.TreeEnding ending) throws Exception {
    ShellRunner runner = new ShellRunner(Files::deleteIfExists, StandardCharsets.UTF_8, ending);

    ShellRunner.Result result = runner.run(target().command(FORKS), Map.of(), Duration.ofSeconds(3));

    assertThat(result.exitCode()).isEqualTo(-1);
    assertThat(endsWithin(childPid(), Duration.ofSeconds(30))).as("the forked child ended").isTrue();
  }

  @ParameterizedTest
  @EnumSource(ShellRunner.TreeEnding.class)
  void cancelEndsTheForkedChild(ShellRunner.TreeEnding ending) throws Exception {
    ShellRunner runner = new ShellRunner(Files::deleteIfExists, StandardCharsets.UTF_8, ending);
    CompletableFuture<ShellRunner.Result> running = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.run(target().command(FORKS), Map.of(), Duration.ofMinutes(10));
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    long child;
    try {
      child = childPid();
    } finally {
      runner.cancel();
    }

    assertThat(running.get().exitCode()).isEqualTo(-1);
    assertThat(endsWithin(child, Duration.ofSeconds(30))).as("the forked child ended").isTrue();
  }

  @ParameterizedTest
  @EnumSource(ShellRunner.TreeEnding.class)
  void aFinishedScriptKeepsItsExitCodeAndOutput(ShellRunner.TreeEnding ending) throws Exception {
    ShellRunner runner = new ShellRunner(Files::deleteIfExists, StandardCharsets.UTF_8, ending);

    ShellRunner.Result result = runner.run(target().command("echo here; exit 3"), Map.of(), Duration.ofMinutes(1));

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.stdout()).isEqualTo("here\n");
  }

  private Target target() {
    return new Target("local", "1", new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), dir);
  }

  /** Waits for the script to have forked: its child's id, once written. */
  private long childPid() throws Exception {
    Path file = dir.resolve("child.pid");
    Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
    while (Instant.now().isBefore(deadline)) {
      String text = Files.exists(file) ? Files.readString(file).trim() : "";
      if (!text.isEmpty()) {
        return Long.parseLong(text);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the script never forked");
  }

  /** Gone, or a zombie nobody reaped yet: either way it no longer runs. */
  private static boolean endsWithin(long pid, Duration limit) throws Exception {
    Instant deadline = Instant.now().plus(limit);
    while (Instant.now().isBefore(deadline)) {
      Path stat = Path.of("/proc/" + pid + "/stat");
      if (!Files.exists(stat) || stateOf(stat) == 'Z') {
        return true;
      }
      Thread.sleep(50);
    }
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    return false;
  }

  private static char stateOf(Path stat) {
    try {
      String text = Files.readString(stat);
      return text.charAt(text.lastIndexOf(')') + 2);
    } catch (IOException e) {
      return 'Z';
    }
  }
}
