package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.sessionSamples;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/**
 * A lab session (one batch) of three versions listed out of version order (1.7.6-1, 1.7.2-1, 1.7.5-1), all slower
 * than the history since 1.7.2-1: the real agent sends the session's runs in version order, so the step is opened
 * once, at 1.7.2-1, in one summary, and never moved or withdrawn.
 */
class AgentSessionOrderTest extends IntegrationTest {

  @TempDir
  Path home;

  private final Random random = new Random(11);
  private final String product = unique("session");
  private final String machine = unique("lab");
  private static final List<String> BENCHMARKS = List.of("write-64b", "fork", "read-64b");

  private RunUpload measured(String version, String batch, String id, double factor) {
    List<ResultUpload> results = new ArrayList<>();
    for (int b = 0; b < BENCHMARKS.size(); b++) {
      results.add(new ResultUpload(BENCHMARKS.get(b), "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
          sessionSamples(random, 40 * (b + 1) * (b == 0 ? factor : 1))));
    }
    RunUpload run = run(product, version, machine, results.toArray(ResultUpload[]::new));
    return new RunUpload(id, run.product(), run.version(), run.machine(), run.suite(), batch, null, null,
        run.attributes(), run.results(), run.failures());
  }

  @Test
  void aSessionListedOutOfVersionOrderOpensOneStepInOneSummaryAndWithdrawsNothing() throws Exception {
    for (int v = 1; v <= 6; v++) {
      RunUpload history = measured("1.6." + v + "-1", null, UUID.randomUUID().toString(), 1);
      assertThat(http().postJson("/api/v1/runs", json(history), TOKEN).status()).isEqualTo(201);
    }
    String batch = UUID.randomUUID().toString();
    // the spool lists entries of one moment by name: these ids put them in the order the targets were listed
    List<Path> files = new ArrayList<>();
    String[] versions = {"1.7.6-1", "1.7.2-1", "1.7.5-1"};
    for (int i = 0; i < versions.length; i++) {
      String id = (i + 1) + "0000000-0000-4000-8000-000000000000";
      files.add(Files.writeString(home.resolve("run-" + i + ".json"), json(measured(versions[i], batch, id, 2))));
    }
    List<String> args = new ArrayList<>(List.of("upload", "--server", "http://localhost:" + port, "--token", TOKEN,
        "--spool", home.resolve("spool").toString()));
    files.forEach(f -> args.add(f.toString()));

    AgentProcess.Result result = AgentProcess.run(home, args.toArray(String[]::new));

    assertThat(result.exitCode()).as(result.out()).isZero();
    assertThat(result.out()).as("1.7.2-1, 1.7.5-1, 1.7.6-1").containsSubsequence("/runs/20000000",
        "/runs/30000000", "/runs/10000000");
    JsonNode regressions = http().getWithToken("/api/v1/regressions?status=all&product=" + product, TOKEN).json();
    assertThat(regressions).singleElement().satisfies(r -> {
      assertThat(r.get("benchmark").asString()).isEqualTo("write-64b");
      assertThat(r.get("version").asString()).isEqualTo("1.7.2-1");
      assertThat(r.get("status").asString()).isEqualTo("open");
      assertThat(r.get("history").findValuesAsString("action")).doesNotContain("reattributed", "withdrawn");
    });
    JsonNode summaries = http().getWithToken("/api/v1/summaries?status=all&product=" + product, TOKEN).json();
    assertThat(summaries.isArray() ? summaries : summaries.get("items")).hasSize(1);
  }
}
