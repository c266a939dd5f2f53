package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;
import org.perftrack.wire.RunUpload;

/**
 * A lab job's plan: each benchmark runs only at the versions planned for it, still interleaved with the other
 * versions of that benchmark, and a version's run holds only its planned benchmarks (no "not measured" failures
 * for the rest).
 */
class PlannedSessionTest {

  @TempDir
  Path home;

  /** The real runner, remembering in which work directory (so: which version) each sample ran. */
  private static final class Recording extends ShellRunner {
    final List<String> samples = new ArrayList<>();

    @Override
    public Result run(List<String> command, Map<String, String> env, Duration timeout)
        throws IOException, InterruptedException {
      String line = command.get(command.size() - 1);
      if (line.contains(" sample ")) {
        samples.add((line.contains("/v61") ? "6.1 " : "6.2 ") + line.replaceAll(".*\\./(\\S+) sample.*", "$1"));
      }
      return super.run(command, env, timeout);
    }
  }

  private PreparedTarget prepared(String version, String dir, List<Benchmark> benchmarks) throws Exception {
    Target target = new Target(version, version, new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false),
        home.resolve(dir));
    return new TargetSetup(new ShellRunner()).prepare(target, benchmarks);
  }

  @Test
  void eachBenchmarkRunsAtItsPlannedVersionsOnlyInterleaved() throws Exception {
    List<Benchmark> benchmarks = Suite.select(List.of("null-call", "sigprocmask"));
    PreparedTarget v61 = prepared("6.1", "v61", benchmarks);
    PreparedTarget v62 = prepared("6.2", "v62", benchmarks);
    Recording runner = new Recording();
    Map<String, Set<String>> plan = Map.of("null-call", new LinkedHashSet<>(List.of("6.1", "6.2")),
        "sigprocmask", Set.of("6.2"));

    List<Measurements> measured = new SuiteSession(runner, new PrintWriter(new StringWriter(), true))
        .run(List.of(v61, v62), benchmarks, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60)), plan);

    RunAssembler.Session session = new RunAssembler.Session("linux", "lab-01", "9a0e7f6c-0c2d-4e55-8f41-3f1d2c4b5a6e",
        Map.of());
    RunUpload first = RunAssembler.assemble(measured.get(0), session);
    RunUpload second = RunAssembler.assemble(measured.get(1), session);
    assertThat(first.results()).extracting(RunUpload.ResultUpload::benchmark).containsOnly("null-call");
    assertThat(first.failures()).as("a benchmark not planned at 6.1 is no failure of it").isEmpty();
    assertThat(second.results()).extracting(RunUpload.ResultUpload::benchmark)
        .containsOnly("null-call", "sigprocmask");
    assertThat(runner.samples).as("interleaved A B A B, then the benchmark planned at one version")
        .containsExactly("6.1 null_call", "6.2 null_call", "6.1 null_call", "6.2 null_call", "6.2 sigprocmask",
            "6.2 sigprocmask");
  }
}
