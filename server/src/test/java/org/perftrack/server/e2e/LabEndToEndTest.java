package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.unique;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.alerts.Senders;
import org.perftrack.server.lab.LabTicks;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The lab loop for real: the server on the embedded PostgreSQL, the agent jar as a process, and a
 * folder of eight "installed versions" 1.5.19-1 … 1.5.19-8 of a layer (each its own bash wrapper and
 * the slowlayer preload double), slow from 1.5.19-6 on: fork sleeps 200 ms more, ×20 and beyond of a
 * plain fork, far beyond any noise of a loaded machine. A first {@code run} of -1 against -8 opens the
 * regression; {@code serve} (killed mid-job and restarted once) bisects it to the first bad version.
 */
class LabEndToEndTest extends IntegrationTest {

  @Autowired
  private ApplicationContext app;

  static final int SLOW_FROM = 6;
  static GreenMail mail;

  @TempDir
  Path home;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");
  private Process agent;

  @BeforeAll
  static void smtp() {
    mail = new GreenMail(new ServerSetup(MAIL_PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    mail.start();
  }

  @AfterAll
  static void stopSmtp() {
    mail.stop();
  }

  @AfterEach
  void stopAgent() throws Exception {
    if (agent != null && agent.isAlive()) {
      agent.descendants().forEach(ProcessHandle::destroyForcibly);
      agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Eight installations: bin/bash wraps the system's bash, the slow ones switch the preload's fork delay on. */
  private Path layers() throws Exception {
    Path library = AgentProcess.compileSlowLayer(home);
    Path layers = Files.createDirectories(home.resolve("layers"));
    for (int i = 1; i <= 8; i++) {
      Path bin = Files.createDirectories(layers.resolve("1.5.19-" + i).resolve("bin"));
      Files.copy(library, bin.getParent().resolve("liblayer.so"));
      Path bash = bin.resolve("bash");
      Files.writeString(bash, "#!/bin/bash\n"
          + (i >= SLOW_FROM ? "export SLOWLAYER=fork SLOWLAYER_FORK_US=200000\n" : "unset SLOWLAYER\n")
          + "exec /bin/bash \"$@\"\n");
      Files.setPosixFilePermissions(bash, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return layers;
  }

  private Path config(String name, String targets) throws Exception {
    return Files.writeString(home.resolve(name), """
        server: http://localhost:%d
        token: %s
        product: %s
        machine: %s
        repetitions: 5
        scale: 0.1
        benchmarks: [fork]
        spool: %s
        workDir: %s
        heartbeat: 1
        %s
        """.formatted(port, TOKEN, product, machine, home.resolve("spool"), home.resolve("work"), targets));
  }

  @Test
  void serveBisectsTheRegressionToTheFirstSlowVersionAlsoWhenKilledMidJobAndMailsASilentAgentOnce() throws Exception {
    Path layers = layers();
    Path first = config("first.yml", """
        targets:
          - {version: 1.5.19-1, shell: ["%1$s/1.5.19-1/bin/bash", -c], env: {LD_PRELOAD: "%1$s/1.5.19-1/liblayer.so"}}
          - {version: 1.5.19-8, shell: ["%1$s/1.5.19-8/bin/bash", -c], env: {LD_PRELOAD: "%1$s/1.5.19-8/liblayer.so"}}
        """.formatted(layers));
    AgentProcess.Result run = AgentProcess.run(home, "run", "--config", first.toString(), "--step-timeout", "60");
    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(run.out()).contains("REGRESSION fork time-per-op: 1.5.19-1 -> 1.5.19-8");
    long regression = regressionId();

    Path serve = config("serve.yml", """
        discover:
          - glob: %s/1.5.19-*
            version: "{name}"
            shell: ["{path}/bin/bash", "-c"]
            env: {LD_PRELOAD: "{path}/liblayer.so"}
        """.formatted(layers));
    long started = System.nanoTime();
    agent = serve(serve);

    // kill -9 the agent in the middle of the first round, then start it again
    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50))
        .until(() -> log().contains("] fork") && log().contains("job "));
    java.util.regex.Matcher claimed = java.util.regex.Pattern.compile("job (\\d+) \\(bisection\\)").matcher(log());
    assertThat(claimed.find()).as(log()).isTrue();
    long killedJob = Long.parseLong(claimed.group(1));
    agent.descendants().forEach(ProcessHandle::destroyForcibly);
    agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    agent = serve(serve);

    await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(200))
        .until(() -> "done".equals(bisection(regression).path("status").asString(null)));
    double seconds = (System.nanoTime() - started) / 1e9;

    JsonNode b = bisection(regression);
    assertThat(b.get("firstBad").asString()).isEqualTo("1.5.19-6");
    assertThat(b.get("lastGood").asString()).isEqualTo("1.5.19-5");
    assertThat(b.get("rounds").asInt()).isBetween(1, 3);
    JsonNode listed = listedRegression(regression);
    assertThat(listed.get("bisection").get("firstBad").asString()).isEqualTo("1.5.19-6");
    // the round that moved the regression opened no regression of its own: the agent says what happened
    await().atMost(Duration.ofSeconds(30)).until(() -> log().contains("a re-attribution"));
    assertThat(jdbc.sql("SELECT attempts FROM lab_job WHERE id = ?").param(killedJob).query(Integer.class).single())
        .as("the killed round ran again").isEqualTo(2);
    assertThat(jdbc.sql("SELECT status FROM lab_job WHERE id = ?").param(killedJob).query(String.class).single())
        .isEqualTo("done");
    // every round measured the middle interleaved with both ends, in one batch
    List<Long> batches = jdbc.sql("""
        SELECT count(DISTINCT r.batch) FROM lab_job j JOIN run r ON r.id = ANY (j.run_ids)
        WHERE j.machine = ? AND j.reason = 'bisection' GROUP BY j.id""").param(machine).query(Long.class).list();
    assertThat(batches).isNotEmpty().allMatch(n -> n == 1);
    List<MimeMessage> result = await().atMost(Duration.ofSeconds(30)).until(() -> mailsAbout("first bad version"),
        m -> !m.isEmpty());
    assertThat(result).hasSize(1);
    assertThat(result.get(0).getSubject()).contains("first bad version 1.5.19-6 (last good 1.5.19-5)");
    System.out.printf("e2e bisection: %s rounds, %.1f s from serve's start to the result%n", b.get("rounds"), seconds);

    // a silent agent: stopped, and its last heartbeat longer ago than perftrack.lab.silent-after (26 h)
    agent.destroy();
    assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
    jdbc.sql("UPDATE lab_agent SET last_seen_at = now() - interval '27 hours' WHERE machine = ?").param(machine).update();
    await().atMost(Duration.ofSeconds(30)).until(() -> mailsAbout(machine + " is silent"), m -> !m.isEmpty());
    LabTicks.tick(app); // more ticks of the lab's clock, each followed by a whole pass of the mail sender: still one
    Senders.drain(app);
    LabTicks.tick(app);
    Senders.drain(app);
    assertThat(mailsAbout(machine + " is silent")).hasSize(1);
  }

  private Process serve(Path config) throws Exception {
    return AgentProcess.builder(home, "serve", "--config", config.toString(), "--poll", "1", "--step-timeout", "60")
        .start();
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

  private long regressionId() {
    var r = http().get("/api/v1/regressions?product=" + product + "&machine=" + machine);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode fork = r.json().valueStream().filter(n -> n.get("benchmark").asString().equals("fork")
        && n.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow(() -> new AssertionError(r.body()));
    return fork.get("id").asLong();
  }

  /** The regression as the list shows it, whatever detection made of it since (the rounds' uploads may move it). */
  private JsonNode listedRegression(long id) {
    var r = http().get("/api/v1/regressions?product=" + product + "&machine=" + machine
        + "&status=open,acknowledged,invalid,fixed,wontfix,withdrawn");
    return r.json().valueStream().filter(n -> n.get("id").asLong() == id).findFirst().orElseThrow();
  }

  private JsonNode bisection(long regression) {
    var r = http().get("/api/v1/regressions/" + regression + "/bisection");
    return r.status() == 200 ? r.json() : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
  }

  private List<MimeMessage> mailsAbout(String text) {
    return Arrays.stream(mail.getReceivedMessages()).filter(m -> {
      try {
        return m.getSubject().contains(text) && m.getSubject().contains(machine);
      } catch (jakarta.mail.MessagingException e) {
        return false;
      }
    }).toList();
  }
}
