package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.agent.ExitCode;
import org.perftrack.wire.RunUpload;

/**
 * A run goes only where it was meant to go: each command sends its own server's runs and counts the others;
 * {@code perftrack-agent spool} lists what waits, {@code spool send} and {@code spool drop} act on it.
 */
class SpoolCommandTest {

  private static final String OTHER = "http://other.example:8080";

  @TempDir
  Path home;

  private Path root() {
    return home.resolve(".perftrack/spool");
  }

  private static RunUpload run(String version) {
    return new RunUpload(UUID.randomUUID().toString(), "cygwin", version, RunUpload.MachineInfo.named("xp-lab-01"),
        "posix", null, Instant.parse("2007-03-07T19:00:00Z"), Instant.parse("2007-03-07T19:20:00Z"), Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of());
  }

  /** A run spooled by an agent from before the spool recorded servers: in the spool's own folder. */
  private RunUpload unrecorded() throws Exception {
    RunUpload run = run("1.5.19-4");
    Files.createDirectories(root());
    Files.write(root().resolve(run.id() + ".json"), WireJson.MAPPER.writeValueAsBytes(run));
    return run;
  }

  private CliRun agent(String... args) {
    return CliRun.run(home, args);
  }

  @Test
  void anUploadSendsOnlyItsServersRunsAndCountsTheOthersInOneLine() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      RunUpload mine = run("1.7.1-1");
      new Spool(root(), server.url()).save(mine);
      RunUpload theirs = run("1.7.2-1");
      new Spool(root(), OTHER).save(theirs);
      RunUpload old = unrecorded();

      CliRun up = agent("upload", "--server", server.url(), "--token", "t");

      assertThat(up.exitCode()).as(up.out() + up.err()).isEqualTo(ExitCode.OK);
      assertThat(server.stored()).containsOnlyKeys(mine.id());
      assertThat(up.out()).contains("1 run waits for " + OTHER + ", 1 run spooled with no server recorded: "
          + "'perftrack-agent spool' lists them").contains("1 run uploaded, 0 rejected, 0 waiting in the spool");
      assertThat(new Spool(root(), OTHER).pending()).hasSize(1);
      assertThat(root().resolve(old.id() + ".json")).exists();
    }
  }

  @Test
  void spoolListsEachWaitingRunWithItsServerProductVersionMachineAndAge() throws Exception {
    Path saved = new Spool(root(), "HTTP://Other.Example:8080/").save(run("1.7.2-1"));
    Files.setLastModifiedTime(saved, FileTime.from(Instant.now().minus(3, ChronoUnit.HOURS)));
    RunUpload old = unrecorded();

    CliRun list = agent("spool");
    CliRun same = agent("spool", "list");

    assertThat(list.exitCode()).isZero();
    assertThat(same.out()).isEqualTo(list.out());
    assertThat(list.out()).contains("waiting in " + root(), "ID", "SERVER", "PRODUCT", "VERSION", "MACHINE", "WAITING")
        .containsPattern(Spool.idOf(saved) + " +" + OTHER + " +cygwin +1\\.7\\.2-1 +xp-lab-01 +3 h")
        .containsPattern(old.id() + " +\\(none recorded\\) +cygwin +1\\.5\\.19-4 +xp-lab-01 +\\d+ s")
        .contains("2 runs waiting; 1 run spooled with no server recorded: sent only when named, with "
            + "'perftrack-agent spool send --server URL ID'");
    assertThat(agent("spool", "--spool", home.resolve("none").toString()).out())
        .isEqualTo("no runs wait in " + home.resolve("none") + "\n");
  }

  @Test
  void spoolSendSendsARunWithNoServerRecordedOnlyWhenNamedAndNeverARunOfAnotherServer() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      RunUpload old = unrecorded();
      RunUpload theirs = run("1.7.2-1");
      new Spool(root(), OTHER).save(theirs);

      CliRun all = agent("spool", "send", "--server", server.url(), "--token", "t");
      CliRun wrong = agent("spool", "send", "--server", server.url(), "--token", "t", theirs.id());
      CliRun named = agent("spool", "send", "--server", server.url(), "--token", "t", old.id().substring(0, 8));

      assertThat(all.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(all.out()).contains("0 runs uploaded");
      assertThat(wrong.exitCode()).isEqualTo(ExitCode.USAGE);
      assertThat(wrong.err()).contains(theirs.id() + " waits for " + OTHER + ", not for " + server.url()
          + ": send it with --server " + OTHER);
      assertThat(named.exitCode()).as(named.out() + named.err()).isEqualTo(ExitCode.OK);
      assertThat(named.out()).contains("/runs/" + old.id() + " (HTTP 201)", "1 run uploaded");
      assertThat(server.stored()).containsOnlyKeys(old.id());
      assertThat(root().resolve("sent/" + old.id() + ".json")).exists();
    }
  }

  @Test
  void spoolDropRemovesTheRunsNamedOrThoseOlderThanSomeDays() throws Exception {
    Spool other = new Spool(root(), OTHER);
    Path a = other.save(run("1.7.1-1"));
    Path b = other.save(run("1.7.2-1"));
    Files.setLastModifiedTime(b, FileTime.from(Instant.now().minus(10, ChronoUnit.DAYS)));
    Path c = other.save(run("1.7.3-1"));

    CliRun unknown = agent("spool", "drop", "0000");
    CliRun neither = agent("spool", "drop");
    CliRun named = agent("spool", "drop", Spool.idOf(a));
    CliRun old = agent("spool", "drop", "--older-than", "7");

    assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("no run waits in " + root() + " with the id '0000'");
    assertThat(neither.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(named.exitCode()).isZero();
    assertThat(named.out()).contains("dropped " + Spool.idOf(a) + " (cygwin 1.7.1-1, for " + OTHER + ")",
        "1 run dropped");
    assertThat(old.out()).contains("dropped " + Spool.idOf(b), "1 run dropped");
    assertThat(other.pending()).containsExactly(c);
  }

  @Test
  void aRunAnotherProcessIsSendingIsNotDroppedNorSentTwice() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      Spool spool = new Spool(root(), server.url());
      Path entry = spool.save(run("1.7.1-1"));

      try (Claim held = spool.claim(entry)) {
        assertThat(held).isNotNull();
        assertThat(spool.claim(entry)).as("one claim at a time").isNull();

        CliRun drop = agent("spool", "drop", Spool.idOf(entry));
        CliRun send = agent("upload", "--server", server.url(), "--token", "t");

        assertThat(drop.exitCode()).isEqualTo(ExitCode.ERROR);
        assertThat(drop.err()).contains(Spool.idOf(entry) + " is being sent by another agent process: not dropped");
        assertThat(send.exitCode()).as("not an error").isEqualTo(ExitCode.OK);
        assertThat(send.out()).contains("1 run was being sent by another agent process at the same time",
            "0 runs uploaded, 0 rejected, 0 waiting in the spool");
        assertThat(server.requests()).isZero();
      }
      try (Claim again = spool.claim(entry)) {
        assertThat(again).as("free once let go").isNotNull();
      }
    }
  }

  @Test
  void sentRunsStayForKeepSentDaysThenLeave() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      Spool spool = new Spool(root(), server.url());
      spool.sent(spool.save(run("1.7.1-1")));
      Path recent = Files.createDirectories(spool.sentFolder()).resolve(UUID.randomUUID() + ".json");
      Path old = spool.sentFolder().resolve(UUID.randomUUID() + ".json");
      Files.writeString(recent, "{}");
      Files.writeString(old, "{}");
      Files.setLastModifiedTime(recent, FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS)));
      Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(4, ChronoUnit.DAYS)));
      Path config = Files.writeString(home.resolve("agent.yml"), "spool:\n  dir: " + root() + "\n  keep-sent: 3\n"
          + "targets: [{version: '1', shell: [/bin/bash, -c]}]\n");

      CliRun up = agent("upload", "--config", config.toString(), "--server", server.url(), "--token", "t");

      assertThat(up.exitCode()).as(up.out() + up.err()).isZero();
      assertThat(recent).exists();
      assertThat(old).doesNotExist();
    }
  }
}
