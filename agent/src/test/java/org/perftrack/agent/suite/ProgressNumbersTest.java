package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
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
 * The progress lines of a session write each sample as the result table, the server's pages and its mails do
 * (four significant digits, grouped by thousands from 10,000), not with an exponent ("3.485e+04 ns").
 */
class ProgressNumbersTest {

  @TempDir
  Path home;

  /** The real runner, whose samples a slowed layer has made 34,850 ns long. */
  private static final class Slowed extends ShellRunner {
    @Override
    public Result run(List<String> command, Map<String, String> env, Duration timeout)
        throws IOException, InterruptedException {
      Result real = super.run(command, env, timeout);
      if (!command.get(command.size() - 1).contains(" sample ")) {
        return real;
      }
      return new Result(real.exitCode(), real.stdout().replaceAll("value=[^ ]+ unit=ns", "value=34850.2 unit=ns"),
          real.stderr());
    }
  }

  @Test
  void aSampleOfTensOfThousandsReadsAsInTheTable() throws Exception {
    List<Benchmark> benchmarks = Suite.select(List.of("null-call"));
    Target target = new Target("1.3.0", "1.3.0", new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false),
        home.resolve("work"));
    PreparedTarget prepared = new TargetSetup(new ShellRunner()).prepare(target, benchmarks);
    StringWriter console = new StringWriter();

    new SuiteSession(new Slowed(), new PrintWriter(console, true))
        .run(List.of(prepared), benchmarks, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60)));

    assertThat(console.toString()).contains("sample 1/2 34,850 ns").contains("sample 2/2 34,850 ns")
        .doesNotContain("e+04");
  }
}
