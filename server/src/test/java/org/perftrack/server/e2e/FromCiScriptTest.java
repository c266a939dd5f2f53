package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;

/**
 * The pull request check of docs/from-ci.md as a CI job runs it: the documented {@code pr-check.sh}, taken from
 * the page as it is, run by {@code sh} with the real agent jar against the real server. Main's builds pass; the
 * pull request's slower build exits 3 with the Markdown and JUnit reports written, and main has no regression.
 */
class FromCiScriptTest extends IntegrationTest {

  private static final Path DOC = Path.of("../docs/from-ci.md");
  private static final String SCRIPT_START = "#!/bin/sh\n# pr-check.sh";

  @TempDir
  Path job;

  private final GbenchBuilds builds = new GbenchBuilds(11);
  private final String product = unique("mylib");
  private final String machine = unique("gha-ubuntu");

  @Test
  void theDocumentedScriptPassesMainsBuildsAndFailsTheSlowerPullRequestWithItsReports() throws Exception {
    Path script = job.resolve("pr-check.sh");
    Files.writeString(script, documentedScript());

    for (String version : List.of("1.0.0", "1.0.1", "1.0.2", "1.0.3")) {
      assertThat(run(script, version, builds.build(1.0, 1.0), Map.of())).as(version).isZero();
    }
    assertThat(Files.readString(job.resolve("perf.md"))).startsWith("perftrack: no change in `" + product
        + "` `1.0.3` on `" + machine + "`");
    int pullRequest = run(script, "1.0.3-1-gabc1234", builds.build(3.0, 1.0),
        Map.of("PERFTRACK_BRANCH", "pr-42", "PERFTRACK_START_POINT", "1.0.3"));
    String comment = Files.readString(job.resolve("perf.md"));
    String junit = Files.readString(job.resolve("perf.xml"));

    assertThat(pullRequest).as(comment).isEqualTo(3);
    assertThat(comment).startsWith("### perftrack: 2 regressions\n").contains("(branch `pr-42`, against `1.0.3`)",
        "| `" + GbenchBuilds.SMALL + "` | `real-time` | `1.0.3`: ");
    assertThat(junit).contains("failures=\"2\"", "<failure type=\"regression\"");
    assertThat(http().getWithToken("/api/v1/regressions?status=all&product=" + product, TOKEN).body())
        .as("main has no regression").isEqualTo("[]");
  }

  /** The one {@code sh} block of the page that is {@code pr-check.sh}. */
  private static String documentedScript() throws Exception {
    String doc = Files.readString(DOC);
    int start = doc.indexOf("```sh\n" + SCRIPT_START);
    assertThat(start).as("docs/from-ci.md shows pr-check.sh").isNotNegative();
    int from = start + "```sh\n".length();
    return doc.substring(from, doc.indexOf("```", from));
  }

  private int run(Path script, String version, byte[] bench, Map<String, String> more) throws Exception {
    Files.write(job.resolve("bench.json"), bench);
    List<String> command = new ArrayList<>(List.of("sh", script.toString(), "bench.json"));
    ProcessBuilder builder = new ProcessBuilder(command).directory(job.toFile()).redirectErrorStream(true)
        .redirectOutput(job.resolve("job.log").toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("PERFTRACK_"));
    env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("HOME", job.toString());
    env.put("JAVA_TOOL_OPTIONS", "-Duser.home=" + job);
    env.put("PERFTRACK_URL", "http://localhost:" + port);
    env.put("PERFTRACK_TOKEN", TOKEN);
    env.put("PERFTRACK_AGENT", AgentProcess.JAR.toString());
    env.put("PRODUCT", product);
    env.put("FORMAT", "gbench");
    env.put("MACHINE", machine);
    env.put("VERSION", version);
    env.putAll(more);
    Process process = builder.start();
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the script did not finish in 180 s: " + Files.readString(job.resolve("job.log")));
    }
    return process.exitValue();
  }
}
