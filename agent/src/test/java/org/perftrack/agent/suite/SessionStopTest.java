package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;
import org.perftrack.wire.RunUpload;

/**
 * Issue 17, item 2: an exception after the first finished benchmark (on Windows, a file a killed child
 * still holds) must not cost the session what it measured: the finished benchmarks become the run, the
 * rest are failures naming the error, and the run says what stopped it.
 */
class SessionStopTest {

  @TempDir
  Path home;

  /** The real runner, except that one program's calibration throws as Windows would. */
  private static final class FailingAt extends ShellRunner {
    private final String program;

    FailingAt(String program) {
      this.program = program;
    }

    @Override
    public Result run(List<String> command, Map<String, String> env, Duration timeout)
        throws IOException, InterruptedException {
      if (command.get(command.size() - 1).contains("./" + program + " calibrate")) {
        throw new FileSystemException("perftrack-123.out", null,
            "The process cannot access the file because it is being used by another process");
      }
      return super.run(command, env, timeout);
    }
  }

  private PreparedTarget prepared(List<Benchmark> benchmarks) throws Exception {
    Target target = new Target("local", "6.1", new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false),
        home.resolve("work"));
    return new TargetSetup(new ShellRunner()).prepare(target, benchmarks);
  }

  @Test
  void anErrorAfterTheFirstFinishedBenchmarkKeepsWhatFinished() throws Exception {
    List<Benchmark> benchmarks = Suite.select(List.of("null-call", "sigprocmask"));
    PreparedTarget target = prepared(benchmarks);
    StringWriter console = new StringWriter();

    List<Measurements> measured = new SuiteSession(new FailingAt("sigprocmask"), new PrintWriter(console, true))
        .run(List.of(target), benchmarks, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60)));

    RunUpload run = RunAssembler.assemble(measured.get(0),
        new RunAssembler.Session("linux", "ci-01", "9a0e7f6c-0c2d-4e55-8f41-3f1d2c4b5a6e", Map.of()));
    assertThat(run.results()).extracting(RunUpload.ResultUpload::benchmark).containsOnly("null-call");
    assertThat(run.failures()).singleElement().satisfies(f -> {
      assertThat(f.benchmark()).isEqualTo("sigprocmask");
      assertThat(f.message()).startsWith("not measured: the session stopped: FileSystemException")
          .contains("being used by another process");
    });
    assertThat(run.attributes()).containsKey(RunAssembler.STOPPED);
    assertThat(console.toString()).contains("the session stopped at sigprocmask");
  }

  @Test
  void anErrorBeforeAnyBenchmarkFinishedIsStillAnError() throws Exception {
    List<Benchmark> benchmarks = Suite.select(List.of("null-call"));
    PreparedTarget target = prepared(benchmarks);

    Throwable thrown = catchThrowable(() -> new SuiteSession(new FailingAt("null_call"), new PrintWriter(new StringWriter()))
        .run(List.of(target), benchmarks, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60))));

    assertThat(thrown).isInstanceOf(FileSystemException.class);
  }
}
