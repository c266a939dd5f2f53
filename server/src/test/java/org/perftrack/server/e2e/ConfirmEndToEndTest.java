package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.lab.LabTicks;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Confirm jobs for real: the server on the embedded PostgreSQL, the agent jar as a process, and 24 "installed
 * versions" 1.5.0-1 … 1.5.23-1 of a layer whose every fork sleeps 400 ms, 440 ms from 1.5.12-1 on (a 10 % step),
 * with a seeded jitter of 2 % per sample (8 ms, far above what a busy machine adds to a sleep, far below the step).
 * The doubt comes from the first pass, not from the load: its runs (one a version, 6 % apart: the samples of
 * {@code Fixtures.rangedStep} at this level, uploaded as a noisier lab would) leave the step between 1.5.11-1 and
 * 1.5.12-1; {@code serve} takes the confirm job the server makes of it, re-measures only that benchmark at the
 * suspect versions, and the regression ends placed at 1.5.12-1.
 */
class ConfirmEndToEndTest extends IntegrationTest {

  static final int VERSIONS = 24;
  static final int STEP_AT = 12;

  @TempDir
  Path home;

  @Autowired
  private ApplicationContext app;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");
  private Process agent;

  @AfterEach
  void stopAgent() throws Exception {
    if (agent != null && agent.isAlive()) {
      agent.descendants().forEach(ProcessHandle::destroyForcibly);
      agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static String version(int v) {
    return "1.5." + v + "-1";
  }

  /**
   * The installations: each bin/bash wraps the system's bash and sets the preload's fork delay for the n-th sample it
   * runs from a seeded table (seed 7); calibration runs at the installation's level, building the suite unslowed.
   */
  private Path layers(boolean step) throws Exception {
    Path library = AgentProcess.compileSlowLayer(home);
    Path layers = Files.createDirectories(home.resolve(step ? "layers" : "aa-layers"));
    Random later = new Random(7);
    double[][] factors = new double[VERSIONS][40];
    for (int v = 0; v < VERSIONS; v++) {
      for (int n = 0; n < 40; n++) {
        factors[v][n] = 1 + 0.02 * later.nextGaussian();
      }
    }
    for (int v = 0; v < VERSIONS; v++) {
      Path dir = layers.resolve(version(v));
      Path bin = Files.createDirectories(dir.resolve("bin"));
      Files.copy(library, dir.resolve("liblayer.so"));
      double level = step && v >= STEP_AT ? 440_000 : 400_000;
      int index = v;
      String table = IntStream.range(0, 40).mapToObj(n -> Long.toString(Math.round(level * factors[index][n])))
          .collect(Collectors.joining(" "));
      Path bash = bin.resolve("bash");
      Files.writeString(bash, """
          #!/bin/bash
          J=(%s)
          if [[ "$*" == *" sample "* ]]; then
            n=$(cat '%s/samples' 2>/dev/null || echo 0); echo $((n + 1)) > '%s/samples'
            export SLOWLAYER=fork SLOWLAYER_FORK_US=${J[$((n %% 40))]}
          elif [[ "$*" == *" calibrate "* ]]; then
            export SLOWLAYER=fork SLOWLAYER_FORK_US=%d
          else
            unset SLOWLAYER
          fi
          exec /bin/bash "$@"
          """.formatted(table, dir, dir, Math.round(level)));
      Files.setPosixFilePermissions(bash, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return layers;
  }

  private Path config(String name, String productName, String targets) throws Exception {
    return config(name, productName, targets, 5);
  }

  private Path config(String name, String productName, String targets, int repetitions) throws Exception {
    return Files.writeString(home.resolve(name), """
        server: http://localhost:%d
        token: %s
        product: %s
        machine: %s
        repetitions: %d
        scale: 0.1
        benchmarks: [fork]
        spool: %s
        workDir: %s
        heartbeat: 1
        %s
        """.formatted(port, TOKEN, productName, machine, repetitions, home.resolve("spool"), home.resolve("work"),
        targets));
  }

  private String discover(Path layers) {
    return """
        discover:
          - glob: %s/1.5.*
            version: "{name}"
            shell: ["{path}/bin/bash", "-c"]
            env: {LD_PRELOAD: "{path}/liblayer.so"}
        """.formatted(layers);
  }

  /** The first pass: {@code Fixtures.rangedStep}'s runs, as {@code fork} at this layer's level (100 = 400 ms). */
  private void firstPass() {
    for (RunUpload r : Fixtures.rangedStep(product, machine)) {
      RunUpload.ResultUpload w = r.results().get(0);
      List<Double> samples = w.samples().stream().map(x -> x * 4000).toList();
      int v = Integer.parseInt(r.version().substring(2));
      RunUpload run = new RunUpload(r.id(), product, version(v), r.machine(), r.suite(), null, null, null,
          r.attributes(), List.of(new RunUpload.ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
          samples)), List.of());
      var created = http().postJson("/api/v1/runs", Fixtures.json(run), TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
  }

  @Test
  void theFirstRunsLeaveARangeAndAConfirmJobPlacesTheStepAtItsVersion() throws Exception {
    Path layers = layers(true);
    firstPass();
    JsonNode before = forkRegression(product);
    assertThat(before.get("firstSuspect").asString()).as("the first runs leave the step as a range: " + before)
        .isNotEqualTo(before.get("lastSuspect").asString());
    long id = before.get("id").asLong();

    agent = AgentProcess.builder(home, "serve", "--config", config("serve.yml", product, discover(layers)).toString(),
        "--poll", "1", "--step-timeout", "60").start();
    await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
        .until(() -> jdbc.sql("SELECT status FROM confirmation WHERE regression_id = ?").param(id)
            .query(String.class).optional().filter(s -> !s.equals("running")).isPresent());

    JsonNode after = http().get("/api/v1/regressions/" + id).json();
    assertThat(after.get("version").asString()).as(after.toString()).isEqualTo(version(STEP_AT));
    assertThat(after.get("firstSuspect").asString()).isEqualTo(version(STEP_AT));
    String outcome = jdbc.sql("SELECT outcome FROM confirmation WHERE regression_id = ?").param(id)
        .query(String.class).single();
    assertThat(outcome).startsWith("placed at " + version(STEP_AT) + " after ");
    assertThat(after.get("history").valueStream().map(h -> h.get("reason").asString())).contains(outcome);
    // each round re-measured only the suspect benchmark at the suspect versions, in one session
    List<String> measured = jdbc.sql("""
        SELECT DISTINCT s.benchmark || '@' || v.name FROM lab_job j JOIN run r ON r.id = ANY (j.run_ids)
          JOIN version v ON v.id = r.version_id JOIN result res ON res.run_id = r.id JOIN series s ON s.id = res.series_id
         WHERE j.machine = ? AND j.reason = 'confirm' ORDER BY 1""").param(machine).query(String.class).list();
    assertThat(measured).isNotEmpty().allMatch(m -> m.startsWith("fork@"));
    List<String> planned = jdbc.sql("SELECT versions FROM confirmation WHERE regression_id = ?").param(id)
        .query((rs, i) -> List.of((String[]) rs.getArray(1).getArray())).single();
    assertThat(planned).as("the claim's suspects: the step's version and the one before it, and detection's range"
        + " (not 1.5.2-1..1.5.3-1, where the first pass leaves a 3 % candidate of another step)")
        .contains(version(STEP_AT - 1), version(STEP_AT))
        .isSubsetOf(version(STEP_AT - 2), version(STEP_AT - 1), version(STEP_AT));
    assertThat(measured.stream().map(m -> m.substring(5)).distinct().toList()).isSubsetOf(planned);
    await().atMost(Duration.ofSeconds(60)).until(() -> log().contains("CONFIRM fork time-per-op: " + outcome));
    System.out.printf("e2e confirm: %s -> %s%n", before.get("firstSuspect").asString() + ".."
        + before.get("lastSuspect").asString(), outcome);
  }

  /**
   * The A/A case: the same installations without the step (every fork 400 ms with the same seeded jitter). A real
   * first pass ({@code run}, one repetition a version: the jitter is all the doubt there is), then {@code serve} with
   * the lab's ticks: it may get confirm jobs, but no regression opens and none is left open.
   */
  @Test
  void anAaLayerMayGetConfirmJobsButNoRegressionOpens() throws Exception {
    Path layers = layers(false);
    Path first = config("first.yml", product, discover(layers), 1);
    ProcessBuilder run = AgentProcess.builder(home, "run", "--config", first.toString(), "--step-timeout", "60");
    Process pass = run.start();
    assertThat(pass.waitFor(600, TimeUnit.SECONDS)).as("the first pass ends").isTrue();
    assertThat(pass.exitValue()).as(Files.readString(AgentProcess.output(run))).isZero();
    assertThat(jdbc.sql("SELECT count(DISTINCT r.version_id) FROM run r JOIN product p ON p.id = r.product_id"
        + " WHERE p.name = ?").param(product).query(Long.class).single()).isEqualTo(VERSIONS);

    agent = AgentProcess.builder(home, "serve", "--config", config("serve.yml", product, discover(layers), 5)
        .toString(), "--poll", "1", "--step-timeout", "60").start();
    await().atMost(Duration.ofSeconds(120)).until(() -> jdbc.sql("SELECT count(*) FROM lab_agent WHERE product = ?"
        + " AND machine = ? AND 'confirm' = ANY (kinds)").params(product, machine).query(Long.class).single() == 1);
    await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofSeconds(1)).until(() -> {
      LabTicks.tick(app);
      return jdbc.sql("SELECT count(*) FROM lab_job WHERE machine = ? AND status IN ('queued', 'running')")
          .param(machine).query(Long.class).single() == 0
          && jdbc.sql("SELECT count(*) FROM confirmation WHERE machine = ? AND status = 'running'").param(machine)
          .query(Long.class).single() == 0;
    });
    var regressions = http().get("/api/v1/regressions?product=" + product + "&machine=" + machine);
    assertThat(regressions.status()).isEqualTo(200);
    assertThat(regressions.json().valueStream().filter(r -> !r.get("status").asString().equals("withdrawn"))
        .map(JsonNode::toString).toList()).as("no regression opens in an A/A layer").isEmpty();
    System.out.printf("e2e A/A: %d confirm jobs, %d regressions raised and withdrawn%n",
        jdbc.sql("SELECT count(*) FROM lab_job WHERE machine = ? AND reason = 'confirm'").param(machine)
            .query(Long.class).single(), regressions.json().size());
  }

  private JsonNode forkRegression(String productName) {
    var r = http().get("/api/v1/regressions?product=" + productName + "&machine=" + machine);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().valueStream().filter(n -> n.get("benchmark").asString().equals("fork")
        && n.get("metric").asString().equals("time-per-op")).findFirst()
        .orElseThrow(() -> new AssertionError("no fork regression: " + r.body()));
  }

  private String log() throws Exception {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(home)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("agent-")).sorted().toList()) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }
}
