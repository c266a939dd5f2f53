package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.alerts.Receiver;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * Profile jobs for real: the server on the embedded PostgreSQL, two lab machines each running the agent jar
 * ({@code serve}) with two "installed versions" of a layer, 1.0 plain and 2.0 under a preload library that makes
 * every write() a round trip to a helper thread. A regression of write-64b from 1.0 to 2.0 is open on both machines;
 * asking for its profile queues a job that waits its turn behind a run asked for earlier, is claimed under a lease,
 * traced and finished, and the regression's profile reads done with the difference. The second machine has neither
 * strace nor perf on its PATH: its profile says so, and still holds what the untraced pass measured.
 */
class ProfileEndToEndTest extends IntegrationTest {

  @TempDir
  Path home;

  private final String product = unique("cygwin");
  private final String traced = unique("lab");
  private final String bare = unique("bare");
  private final List<Process> agents = new ArrayList<>();

  @AfterEach
  void stopAgents() throws Exception {
    for (Process agent : agents) {
      agent.descendants().forEach(ProcessHandle::destroyForcibly);
      agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    Path bin = home.resolve("no-tracers-bin");
    if (Files.isDirectory(bin)) {
      try (Stream<Path> links = Files.list(bin)) {
        for (Path link : links.toList()) {
          Files.delete(link); // the links, not what they point to
        }
      }
    }
  }

  private Path compileProfileLayer() throws Exception {
    Path library = home.resolve("profilelayer.so");
    Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O1", "-o", library.toString(),
        Path.of("../agent/src/test/native/profilelayer.c").toAbsolutePath().normalize().toString(), "-ldl",
        "-lpthread").inheritIO().start();
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).isZero();
    return library;
  }

  /** A PATH of everything in /usr/bin but strace and perf: a lab machine where neither is installed. */
  private Path withoutTracers() throws Exception {
    Path bin = Files.createDirectories(home.resolve("no-tracers-bin"));
    try (Stream<Path> all = Files.list(Path.of("/usr/bin"))) {
      for (Path p : all.toList()) {
        String name = p.getFileName().toString();
        if (!name.equals("strace") && !name.startsWith("perf")) {
          Files.createSymbolicLink(bin.resolve(name), p);
        }
      }
    }
    return bin;
  }

  private Path config(String machine, Path library, String path) throws Exception {
    String env = path == null ? "" : ", PATH: \"" + path + "\"";
    return Files.writeString(home.resolve(machine + ".yml"), """
        server: http://localhost:%d
        token: %s
        product: %s
        machine: %s
        repetitions: 2
        scale: 0.05
        benchmarks: [write-64b]
        spool: %s
        workDir: %s
        heartbeat: 1
        targets:
          - version: "1.0"
            shell: ["/bin/bash", "-c"]
            env: {PROFILELAYER: "none"%s}
          - version: "2.0"
            shell: ["/bin/bash", "-c"]
            env: {LD_PRELOAD: "%s", PROFILELAYER: "write-trip"%s}
        """.formatted(port, TOKEN, product, machine, home.resolve("spool-" + machine), home.resolve("work-" + machine),
        env, library, env));
  }

  /** write-64b three times slower from 1.0 to 2.0 on the machine: its open regression. */
  private long regression(String machine) {
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine,
        result("write-64b", 1.0, 1.01, 0.99, 1.0, 1.005))), TOKEN).status()).isEqualTo(201);
    Http.Response created = http().postJson("/api/v1/runs", json(run(product, "2.0", machine,
        result("write-64b", 3.0, 3.01, 2.99, 3.0, 3.005))), TOKEN);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    return created.json().get("regressions").get(0).get("id").asLong();
  }

  private void serve(Path config) throws Exception {
    agents.add(AgentProcess.builder(home, "serve", "--config", config.toString(), "--poll", "1", "--step-timeout",
        "120").start());
  }

  private record JobRow(long id, String reason, String status, int attempts, String lease, java.sql.Timestamp started,
      java.sql.Timestamp finished) {}

  /** The jobs this test asks for. The lab may add a confirm job of its own when a claim is unsure (under load the
   *  traced version's samples can be); that is ConfirmEndToEndTest's subject, not this one's. */
  private List<JobRow> jobs(String machine) {
    return jdbc.sql("""
        SELECT id, reason, status, attempts, lease::text AS lease, started_at, finished_at FROM lab_job
         WHERE machine = ? AND reason <> 'confirm' ORDER BY id""").param(machine)
        .query((rs, n) -> new JobRow(rs.getLong("id"), rs.getString("reason"), rs.getString("status"),
            rs.getInt("attempts"), rs.getString("lease"), rs.getTimestamp("started_at"), rs.getTimestamp("finished_at")))
        .list();
  }

  @Test
  void aRegressionsProfileIsQueuedClaimedTracedAndFinishedAndAMachineWithoutTracersSaysWhatWasMissing()
      throws Exception {
    Path library = compileProfileLayer();
    long onTraced = regression(traced);
    long onBare = regression(bare);
    String triage = token(Scope.TRIAGE);
    try (Receiver receiver = Receiver.answering(200)) {
      Http.Response hook = http().postJson("/api/v1/webhooks", json(Map.of("url", receiver.url("/profiles"), "kind",
          "json", "product", product, "events", List.of("profile.done"))), ADMIN_TOKEN);
      assertThat(hook.status()).as(hook.body()).isEqualTo(201);

      // the traced machine's agent registers first: a run asked for now is queued before the profile
      serve(config(traced, library, null));
      await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.sql("SELECT count(*) FROM lab_agent WHERE machine = ?")
          .param(traced).query(Long.class).single() == 1);
      Http.Response manual = http().postJson("/api/v1/lab/jobs", json(Map.of("product", product, "machine", traced,
          "versions", List.of("1.0", "2.0"), "benchmarks", List.of("write-64b"))), triage);
      assertThat(manual.status()).as(manual.body()).isEqualTo(200);
      Http.Response queued = http().postJson("/api/v1/regressions/" + onTraced + "/profile", "", triage);
      assertThat(queued.status()).as(queued.body()).isEqualTo(202);
      assertThat(queued.json().get("status").asString()).isIn("queued", "running");
      assertThat(http().postJson("/api/v1/regressions/" + onTraced + "/profile", "", triage).status())
          .as("asked again while it waits: the same job").isEqualTo(202);

      await().atMost(Duration.ofSeconds(600)).pollInterval(Duration.ofSeconds(1)).until(() -> "done".equals(
          http().get("/api/v1/regressions/" + onTraced + "/profile").json().get("status").asString()));
      JsonNode diff = http().get("/api/v1/regressions/" + onTraced + "/profile").json();
      assertThat(diff.get("sentence").asString()).as(diff.toString())
          .startsWith("each write() in 2.0 makes 2 more ").contains("read()", "write()", "context switches");
      assertThat(perOp(diff, "write", "perOpVersion") - perOp(diff, "write", "perOpBaseline")).isBetween(1.9, 2.1);
      assertThat(perOp(diff, "read", "perOpVersion") - perOp(diff, "read", "perOpBaseline")).isBetween(1.9, 2.1);
      assertThat(diff.get("missing").valueStream().map(JsonNode::asString).toList())
          .noneMatch(m -> m.startsWith("strace"));

      // the queue: the run asked for first ran first; one profile job, claimed once under a lease, finished
      List<JobRow> rows = jobs(traced);
      assertThat(rows).extracting(JobRow::reason).containsExactly("manual", "profile");
      JobRow run = rows.get(0);
      JobRow profile = rows.get(1);
      assertThat(run.status()).isEqualTo("done");
      assertThat(profile.status()).isEqualTo("done");
      assertThat(profile.started()).as("one job at a time on a machine").isAfterOrEqualTo(run.finished());
      assertThat(profile.attempts()).isEqualTo(1);
      assertThat(profile.lease()).as("the lease ends with the job").isNull();
      Http.Response late = http().postJson("/api/v1/profiles", json(Map.of("job", profile.id(), "product", product,
          "machine", traced, "version", "2.0", "benchmark", "write-64b", "operations", 1000)), TOKEN);
      assertThat(late.status()).as("a finished job takes no more profiles: " + late.body()).isEqualTo(409);

      // the machine without strace and perf
      serve(config(bare, library, withoutTracers() + ":/usr/sbin:/sbin"));
      await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.sql("SELECT count(*) FROM lab_agent WHERE machine = ?")
          .param(bare).query(Long.class).single() == 1);
      assertThat(http().postJson("/api/v1/regressions/" + onBare + "/profile", "", triage).status()).isEqualTo(202);
      await().atMost(Duration.ofSeconds(600)).pollInterval(Duration.ofSeconds(1)).until(() -> "done".equals(
          http().get("/api/v1/regressions/" + onBare + "/profile").json().get("status").asString()));
      JsonNode bareDiff = http().get("/api/v1/regressions/" + onBare + "/profile").json();
      assertThat(bareDiff.get("missing").valueStream().map(JsonNode::asString).toList()).as(bareDiff.toString())
          .contains("strace: not installed on this machine (1.0)", "strace: not installed on this machine (2.0)",
              "perf: not installed on this machine (2.0)");
      assertThat(bareDiff.get("syscalls")).isEmpty();
      assertThat(bareDiff.get("sentence").asString()).as("the untraced pass still counts the switches")
          .contains("context switches").contains("not measured");
      assertThat(jobs(bare)).extracting(JobRow::status).containsExactly("done");

      // one profile.done per job, carrying the regression's profile
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(receiver.requests())
          .extracting(r -> r.json().get("event").asString() + " " + r.json().get("profile").get("machine").asString()
              + " " + r.json().get("profile").get("regressions").get(0).get("id").asLong() + " "
              + r.json().get("profile").get("regressions").get(0).get("profile").get("status").asString())
          .containsExactlyInAnyOrder("profile.done " + traced + " " + onTraced + " done",
              "profile.done " + bare + " " + onBare + " done"));
    }
    Http.Response page = http().page("/regressions/" + onTraced);
    assertThat(page.text()).contains("Why", diffSentence(onTraced));
    System.out.printf("e2e profile: traced: %s%ne2e profile: bare: %s%n", diffSentence(onTraced),
        diffSentence(onBare));
  }

  /**
   * The agent's REGRESSION line names the regression's profile once the lab has one queued: the same run sent again
   * (its answer lists the regression again) links to the "Why" card.
   */
  @Test
  void theRegressionLineLinksToTheProfileOnceOneIsQueued() throws Exception {
    Path base = Files.writeString(home.resolve("base.json"), json(run(product, "1.0", traced,
        result("write-64b", 1.0, 1.01, 0.99, 1.0, 1.005))));
    Path head = Files.writeString(home.resolve("head.json"), json(run(product, "2.0", traced,
        result("write-64b", 3.0, 3.01, 2.99, 3.0, 3.005))));
    String server = "http://localhost:" + port;
    String[] upload = {"upload", "--server", server, "--token", TOKEN, "--spool", home.resolve("spool").toString()};
    assertThat(AgentProcess.run(home, concat(upload, base.toString())).exitCode()).isZero();
    AgentProcess.Result first = AgentProcess.run(home, concat(upload, head.toString()));
    assertThat(first.out()).contains("REGRESSION write-64b time-per-op: 1.0 -> 2.0").doesNotContain("why:");
    long id = http().get("/api/v1/regressions?product=" + product + "&machine=" + traced).json().get(0).get("id")
        .asLong();

    Http.Response agent = http().postJson("/api/v1/lab/agents", json(Map.of("product", product, "machine", traced,
        "agentVersion", "test", "heartbeatSeconds", 60, "targets", List.of("1.0", "2.0"), "kinds",
        List.of("profile"))), TOKEN);
    assertThat(agent.status()).as(agent.body()).isEqualTo(200);
    assertThat(http().postJson("/api/v1/regressions/" + id + "/profile", "", token(Scope.TRIAGE)).status())
        .isEqualTo(202);
    AgentProcess.Result again = AgentProcess.run(home, concat(upload, head.toString()));

    assertThat(again.out()).as(again.out()).contains("HTTP 200, the server already had it")
        .contains("REGRESSION write-64b time-per-op: 1.0 -> 2.0")
        .contains("; why: " + server + "/regressions/" + id + "#profile");
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  private String diffSentence(long regression) {
    return http().get("/api/v1/regressions/" + regression + "/profile").json().get("sentence").asString();
  }

  private static double perOp(JsonNode diff, String call, String field) {
    return diff.get("syscalls").valueStream().filter(s -> s.get("name").asString().equals(call)).findFirst()
        .map(s -> s.get(field).asDouble()).orElse(0.0);
  }
}
