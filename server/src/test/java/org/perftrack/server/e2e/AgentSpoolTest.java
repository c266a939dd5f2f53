package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;

/**
 * One spool, many agent processes, several servers: real agent processes (the jar) against the server of the shared
 * context (A), a server that comes and goes behind a {@link Relay}, and a second real server in a JVM of its own (B).
 */
class AgentSpoolTest extends IntegrationTest {

  @TempDir
  Path home;

  private final String product = unique("spooled");
  private final String machine = unique("ci");

  private Path spool() {
    return home.resolve("spool");
  }

  private String serverA() {
    return "http://localhost:" + port;
  }

  /** A result file of one run of {@code version}, as a CI job has it. */
  private RunUpload runFile(String version, String name) throws Exception {
    RunUpload run = run(product, version, machine, result("write-64b", 48.2, 47.9, 48.4, 48.1, 48.3));
    Files.writeString(home.resolve(name), json(run));
    return run;
  }

  private ProcessBuilder agent(String... args) {
    ProcessBuilder builder = AgentProcess.builder(home, args);
    builder.environment().put("PERFTRACK_TOKEN", TOKEN);
    return builder;
  }

  private AgentProcess.Result finish(ProcessBuilder builder, Process process) throws Exception {
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).as(Files.readString(AgentProcess.output(builder))).isTrue();
    return new AgentProcess.Result(process.exitValue(), Files.readString(AgentProcess.output(builder)));
  }

  private AgentProcess.Result agentRun(String... args) throws Exception {
    ProcessBuilder builder = agent(args);
    return finish(builder, builder.start());
  }

  private long storedOnA(String id) {
    return jdbc.sql("select count(*) from run where id = ?::uuid").param(id).query(Long.class).single();
  }

  @Test
  void tenUploadsAtOnceOnOneSpoolAllExitAsTheyShouldAndEachWritesItsReport() throws Exception {
    List<RunUpload> runs = new ArrayList<>();
    List<ProcessBuilder> builders = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      runs.add(runFile("2.0." + i, "run-" + i + ".json"));
      builders.add(agent("upload", "--server", serverA(), "--spool", spool().toString(),
          "--report", home.resolve("report-" + i + ".md").toString(),
          "--junit", home.resolve("junit-" + i + ".xml").toString(), home.resolve("run-" + i + ".json").toString()));
    }
    List<Process> processes = new ArrayList<>();
    for (ProcessBuilder b : builders) {
      processes.add(b.start());
    }

    for (int i = 0; i < 10; i++) {
      AgentProcess.Result r = finish(builders.get(i), processes.get(i));
      assertThat(r.exitCode()).as(r.out()).isZero();
      assertThat(r.out()).doesNotContain("NoSuchFileException", "error:").contains("report written to",
          "JUnit report written to");
      assertThat(Files.readString(home.resolve("report-" + (i + 1) + ".md"))).as(r.out())
          .contains("2.0." + (i + 1)).doesNotContain("has not reached the server");
      assertThat(home.resolve("junit-" + (i + 1) + ".xml")).content().contains("<testsuite");
      assertThat(storedOnA(runs.get(i).id())).isEqualTo(1);
    }
    assertThat(AgentProcess.waiting(spool())).isEmpty();
    assertThat(AgentProcess.sent(spool())).hasSize(10);
    try (Stream<Path> all = Files.walk(spool())) {
      assertThat(all.toList()).as("the spool is its user's alone").allSatisfy(p -> assertThat(
          PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).as(p.toString())
          .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------"));
    }
  }

  @Test
  void runsSpooledWhileTheirServerIsDownGoToItWhenItIsBackAndToNoOther() throws Exception {
    int portB = freePort();
    String serverB = "http://localhost:" + portB;
    RunUpload forB = runFile("3.0.0", "for-b.json");
    RunUpload old = runFile("2.9.0", "old.json");
    Files.createDirectories(spool());
    Files.copy(home.resolve("old.json"), spool().resolve(old.id() + ".json")); // spooled by an agent before servers

    AgentProcess.Result down = agentRun("upload", "--server", serverB, "--spool", spool().toString(),
        "--retry-attempts", "2", "--retry-delay-ms", "50", home.resolve("for-b.json").toString());
    AgentProcess.Result toA = agentRun("upload", "--server", serverA(), "--spool", spool().toString());

    assertThat(down.exitCode()).as(down.out()).isEqualTo(4);
    assertThat(toA.exitCode()).as(toA.out()).isZero();
    assertThat(toA.out()).contains("0 runs uploaded", "1 run waits for " + serverB
        + ", 1 run spooled with no server recorded: 'perftrack-agent spool' lists them");
    assertThat(storedOnA(forB.id())).isZero();
    assertThat(storedOnA(old.id())).isZero();
    assertThat(agentRun("spool", "--spool", spool().toString()).out())
        .containsPattern(forB.id() + " +" + serverB + " +" + product + " +3\\.0\\.0 +" + machine)
        .containsPattern(old.id() + " +\\(none recorded\\)");

    Path data = home.resolve("b");
    Path log = Files.createDirectories(data).resolve("b.log");
    try (ServerProcess b = ServerProcess.start(MigratedData.copyTo(data.resolve("db")), log,
        portB, "--perftrack.bootstrap-token=" + TOKEN)) {
      AgentProcess.Result back = agentRun("upload", "--server", serverB, "--spool", spool().toString());

      assertThat(back.exitCode()).as(back.out()).isZero();
      assertThat(back.out()).contains("/runs/" + forB.id() + " (HTTP 201)", "1 run uploaded");
      assertThat(new Http(b.base()).getWithToken("/api/v1/runs/" + forB.id(), TOKEN).status()).isEqualTo(200);
      assertThat(new Http(b.base()).getWithToken("/api/v1/runs/" + old.id(), TOKEN).status()).isEqualTo(404);
      assertThat(storedOnA(forB.id())).isZero();
      assertThat(spool().resolve(old.id() + ".json")).as("sent only when named").exists();
    }
  }

  @Test
  void aServeAgentOfOneServerNeverSendsARunMeantForAnother() throws Exception {
    try (Relay a = new Relay(); Relay b = new Relay()) {
      RunUpload forA = runFile("4.0.0", "for-a.json");
      RunUpload forB = runFile("4.0.1", "for-b.json");
      for (Object[] spooled : new Object[][] {{a, "for-a.json"}, {b, "for-b.json"}}) {
        AgentProcess.Result down = agentRun("upload", "--server", ((Relay) spooled[0]).url(), "--spool",
            spool().toString(), "--retry-attempts", "1", home.resolve((String) spooled[1]).toString());
        assertThat(down.exitCode()).as(down.out()).isEqualTo(4);
      }
      a.forwardTo(port);
      Path config = Files.writeString(home.resolve("serve.yml"), """
          server: %s
          token: %s
          product: %s
          machine: %s
          spool: %s
          workDir: %s
          targets: [{version: 4.0.0, shell: [/bin/bash, -c]}]
          """.formatted(a.url(), TOKEN, product, machine, spool(), home.resolve("work")));

      ProcessBuilder builder = agent("serve", "--config", config.toString(), "--poll", "1");
      Process serve = builder.start();
      try {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() ->
            Files.readString(AgentProcess.output(builder)).contains("registered"));
      } finally {
        serve.destroy();
        serve.waitFor(60, TimeUnit.SECONDS);
      }

      String log = Files.readString(AgentProcess.output(builder));
      assertThat(log).contains("/runs/" + forA.id() + " (HTTP 201)", "1 run waits for " + b.url());
      assertThat(storedOnA(forA.id())).isEqualTo(1);
      assertThat(storedOnA(forB.id())).isZero();
      assertThat(AgentProcess.waiting(spool())).singleElement()
          .satisfies(p -> assertThat(p.getFileName()).hasToString(forB.id() + ".json"));
    }
  }

  @Test
  void aSenderKilledWhileSendingLosesNothingAndLeavesNothingLocked() throws Exception {
    try (Relay stuck = new Relay()) {
      stuck.hold();
      RunUpload run = runFile("5.0.0", "run.json");
      ProcessBuilder builder = agent("upload", "--server", stuck.url(), "--spool", spool().toString(),
          home.resolve("run.json").toString());
      Process sender = builder.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> stuck.accepted() > 0 || !sender.isAlive());
      assertThat(sender.isAlive()).as(Files.readString(AgentProcess.output(builder))).isTrue();

      sender.destroyForcibly(); // SIGKILL while it holds the run's claim and waits for the answer
      sender.waitFor(60, TimeUnit.SECONDS);

      assertThat(AgentProcess.waiting(spool())).as("nothing lost").singleElement()
          .satisfies(p -> assertThat(p.getFileName()).hasToString(run.id() + ".json"));
      stuck.forwardTo(port);
      AgentProcess.Result after = agentRun("upload", "--server", stuck.url(), "--spool", spool().toString());

      assertThat(after.exitCode()).as(after.out()).isZero();
      assertThat(after.out()).as("nothing locked").contains("/runs/" + run.id() + " (HTTP 201)",
          "1 run uploaded, 0 rejected, 0 waiting").doesNotContain("another agent process");
      assertThat(storedOnA(run.id())).isEqualTo(1);
      try (Stream<Path> all = Files.walk(spool())) {
        assertThat(all.filter(p -> p.toString().endsWith(".tmp")).toList()).isEmpty();
      }
    }
  }
}
