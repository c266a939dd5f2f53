package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The agent jar as a real process against the real server on the embedded PostgreSQL: two targets,
 * one of them an "emulation layer that got slower" (the slowlayer preload library), and a server that
 * is away while the agent finishes.
 */
class AgentEndToEndTest extends IntegrationTest {

  @TempDir
  Path home;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  private Path config(String server, Path library) throws Exception {
    return Files.writeString(home.resolve("agent.yml"), """
        server: %s
        token: ${PERFTRACK_E2E_TOKEN}
        product: %s
        machine: %s
        repetitions: 5
        scale: 0.05
        benchmarks: [null-call, write-64b, fork]
        targets:
          - {version: 1.5.19-4, shell: [/bin/bash, -c]}
          - version: 1.5.24-2
            shell: [/bin/bash, -c]
            env: {LD_PRELOAD: %s, SLOWLAYER: "write,read,sigprocmask,fork", SLOWLAYER_FORK_US: "2000", SLOWLAYER_CALL_US: "20"}
        """.formatted(server, product, machine, library));
  }

  private AgentProcess.Result agent(String... args) throws Exception {
    ProcessBuilder builder = AgentProcess.builder(home, args);
    builder.environment().put("PERFTRACK_E2E_TOKEN", TOKEN);
    Process p = builder.start();
    p.waitFor();
    return new AgentProcess.Result(p.exitValue(), Files.readString(AgentProcess.output(builder)));
  }

  @Test
  void slowedVersionIsStoredManyTimesSlowerFlaggedAndFailsTheBuild() throws Exception {
    Path config = config("http://localhost:" + port, AgentProcess.compileSlowLayer(home));

    AgentProcess.Result result = agent("run", "--config", config.toString(), "--step-timeout", "60",
        "--fail-on-regression");

    // the whole CI story: the slowed version is measured, uploaded, judged by the server, and fails the build
    assertThat(result.exitCode()).as(result.out()).isEqualTo(3);
    // only effects far beyond what a loaded machine does to a plain run are asserted: each slowed write()
    // spins 20 µs on top of its thread round trip (plain ~1 µs; ×2.5 was once all a round trip alone showed
    // at load 15); how many µs the layer adds is measured by the agent's machine-timing test
    assertThat(result.out()).contains("2 runs uploaded, 0 rejected, 0 waiting")
        .contains("judged with its session once the session's other runs are stored")
        .contains("REGRESSION write-64b time-per-op: 1.5.19-4 -> 1.5.24-2")
        .doesNotContain("ctx-switches-per-op: 1.5.19-4");
    assertThat(medianOf("write-64b", "1.5.24-2") / medianOf("write-64b", "1.5.19-4")).isGreaterThan(3);
    assertThat(series("write-64b", "ctx-switches-per-op").get("points")).hasSize(2);
    assertThat(jdbc.sql("select count(distinct batch) from run r join product p on p.id = r.product_id where p.name = ?")
        .param(product).query(Long.class).single()).isEqualTo(1);
  }

  @Test
  void serverAwayDuringTheRunLosesNothingAndAResendStoresNothingTwice() throws Exception {
    try (Relay server = new Relay()) {
      Path config = config(server.url(), AgentProcess.compileSlowLayer(home));
      Path spool = home.resolve("spool");

      AgentProcess.Result away = agent("run", "--config", config.toString(), "--spool", spool.toString(),
          "--benchmarks", "null-call", "--retry-attempts", "2", "--retry-delay-ms", "50", "--step-timeout", "60");

      assertThat(away.exitCode()).as(away.out()).isEqualTo(4);
      assertThat(away.out()).contains("server unreachable");
      assertThat(AgentProcess.waiting(spool)).hasSize(2);

      server.forwardTo(port);
      AgentProcess.Result back = agent("upload", "--server", server.url(), "--token", TOKEN, "--spool",
          spool.toString());

      assertThat(back.exitCode()).as(back.out()).isZero();
      assertThat(AgentProcess.waiting(spool)).isEmpty();
      List<Path> sent = AgentProcess.sent(spool);
      assertThat(sent).hasSize(2);

      AgentProcess.Result resend = agent("upload", "--server", server.url(), "--token", TOKEN, "--spool",
          spool.toString(), sent.get(0).toString());

      assertThat(resend.exitCode()).as(resend.out()).isZero();
      assertThat(resend.out()).contains("HTTP 200, the server already had it");
      RunUpload first = Json.MAPPER.readValue(sent.get(0).toFile(), RunUpload.class);
      assertThat(jdbc.sql("select count(*) from run where id = ?::uuid").param(first.id()).query(Long.class).single())
          .isEqualTo(1);
      assertThat(series("null-call", "time-per-op").get("points").valueStream().mapToInt(p -> p.get("n").asInt()))
          .containsExactly(5, 5);
    }
  }

  private double medianOf(String benchmark, String version) {
    JsonNode points = series(benchmark, "time-per-op").get("points");
    return points.valueStream().filter(p -> p.get("version").asString().equals(version))
        .findFirst().orElseThrow(() -> new AssertionError(version + " missing from " + points))
        .get("median").asDouble();
  }

  private JsonNode series(String benchmark, String metric) {
    var r = http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=" + benchmark + "&metric=" + metric);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }
}
