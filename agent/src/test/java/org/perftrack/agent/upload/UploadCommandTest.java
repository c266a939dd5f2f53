package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.agent.ExitCode;
import org.perftrack.formats.Formats;
import org.perftrack.formats.RunContext;
import org.perftrack.wire.RunUpload;

class UploadCommandTest {

  @TempDir
  Path home;

  /** The server of the last upload. */
  private String server;

  private Path spool() {
    return home.resolve(".perftrack/spool");
  }

  /** The last upload's server's folder in the spool. */
  private Path folder() {
    return spool().resolve(ServerUrl.folder(server));
  }

  private Path runFile(String id) throws IOException {
    RunUpload run = new RunUpload(id, "cygwin", "1.5.24-2", RunUpload.MachineInfo.named("xp-lab-01"), "posix", null,
        Instant.parse("2007-03-07T19:00:00Z"), Instant.parse("2007-03-07T19:20:00Z"), Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of());
    return Files.write(home.resolve(id + "-result.json"), WireJson.MAPPER.writeValueAsBytes(run));
  }

  private CliRun upload(String server, String... more) {
    this.server = server;
    String[] base = {"upload", "--server", server, "--token", "t0k", "--retry-attempts", "3", "--retry-delay-ms", "10"};
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return CliRun.run(home, args);
  }

  @Test
  void serverDownKeepsTheRunInTheSpoolAndSendsItOnceTheServerIsUp() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String id = UUID.randomUUID().toString();

    CliRun down = upload("http://127.0.0.1:" + port, runFile(id).toString());

    assertThat(down.exitCode()).isEqualTo(ExitCode.SPOOLED);
    assertThat(down.err()).as("an error, on stderr").contains("server unreachable").contains("1 run left in")
        .contains(": send it later with 'perftrack-agent upload'");
    assertThat(down.out()).doesNotContain("server unreachable");
    assertThat(folder().resolve(id + ".json")).exists();

    try (FakeServer server = new FakeServer(port)) {
      CliRun up = upload(server.url());

      assertThat(up.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(server.stored()).containsOnlyKeys(id);
      assertThat(server.authorizations()).containsOnly("Bearer t0k");
      assertThat(folder().resolve(id + ".json")).doesNotExist();
      assertThat(folder().resolve("sent/" + id + ".json")).exists();
    }
  }

  @Test
  void serverErrorsAreRetriedUntilTheRunIsStored() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.then(500, "{}");
      server.then(503, "{}");

      CliRun result = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(server.requests()).isEqualTo(3);
      assertThat(server.stored()).hasSize(1);
    }
  }

  @Test
  void badRequestMovesTheRunToRejectedWithTheServersProblemDetail() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.then(400, "{\"title\":\"Bad Request\",\"status\":400,\"detail\":\"results[0].samples is empty\"}");
      String id = UUID.randomUUID().toString();

      CliRun result = upload(server.url(), runFile(id).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(server.requests()).isEqualTo(1);
      assertThat(result.err()).as("an error, on stderr").contains("the server rejected " + id + ".json (HTTP 400): ")
          .contains("results[0].samples is empty");
      assertThat(result.out()).as("the reason on stdout too, for a CI log of stdout alone")
          .contains("REJECTED " + id + ".json (HTTP 400): results[0].samples is empty", "0 runs uploaded, 1 rejected");
      assertThat(folder().resolve("rejected/" + id + ".json")).exists();
      assertThat(Files.readString(folder().resolve("rejected/" + id + ".problem.json"))).contains("samples is empty");
      assertThat(folder().resolve(id + ".json")).doesNotExist();
    }
  }

  /** Issue 12: Tomcat's own HTML 400 for a request cut during shutdown, or a proxy's page, is not our verdict. */
  @Test
  void aBadRequestPageThatIsNotOurProblemDetailIsRetriedNotRejected() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.then(400, "text/html;charset=utf-8",
          "<!doctype html><html><head><title>HTTP Status 400 – Bad Request</title></head><body></body></html>");
      server.then(400, "text/plain", "Bad Request");
      String id = UUID.randomUUID().toString();

      CliRun result = upload(server.url(), runFile(id).toString());

      assertThat(result.exitCode()).as(result.out()).isEqualTo(ExitCode.OK);
      assertThat(server.requests()).isEqualTo(3);
      assertThat(server.stored()).containsOnlyKeys(id);
      assertThat(folder().resolve("rejected/" + id + ".json")).doesNotExist();
      assertThat(folder().resolve("sent/" + id + ".json")).exists();
    }
  }

  @Test
  void aProblemDetailWithParametersIsStillARejection() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.then(422, "Application/Problem+JSON; charset=UTF-8", "{\"status\":422,\"detail\":\"unit changed\"}");
      String id = UUID.randomUUID().toString();

      CliRun result = upload(server.url(), runFile(id).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(server.requests()).isEqualTo(1);
      assertThat(folder().resolve("rejected/" + id + ".json")).exists();
    }
  }

  @Test
  void resendingTheSameRunIsHarmless() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      Path file = runFile(UUID.randomUUID().toString());

      assertThat(upload(server.url(), file.toString()).exitCode()).isEqualTo(ExitCode.OK);
      CliRun again = upload(server.url(), file.toString());

      assertThat(again.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(again.out()).contains("already had it");
      assertThat(server.requests()).isEqualTo(2);
      assertThat(server.stored()).hasSize(1);
    }
  }

  @Test
  void theRunAndTheSummariesAnUploadOpenedOrGrewArePrintedAsLinks() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportSummaries("[{\"id\":7,\"change\":\"opened\",\"url\":\"/summaries/7\"}]");
      String id = UUID.randomUUID().toString();

      CliRun result = upload(server.url(), runFile(id).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
      String at = server.url().replaceAll("/+$", "");
      assertThat(result.out()).as("the run's page, not its spool file")
          .contains("uploaded " + at + "/runs/" + id + " (HTTP 201)").doesNotContain(id + ".json")
          .contains("SUMMARY opened " + at + "/summaries/7");
    }
  }

  @Test
  void regressionLinesReadAsPeopleReadNumbersAndNameTheMachine() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportRegressions("[{\"benchmark\":\"pipe-bw/65536\",\"metric\":\"bandwidth\",\"machine\":\"lab-a\","
          + "\"unit\":\"B/s\",\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":3180000000,"
          + "\"value\":1092000000,\"ratio\":0.3434},"
          + "{\"benchmark\":\"faults\",\"metric\":\"faults-per-op\",\"machine\":\"lab-b\",\"unit\":\"1\","
          + "\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":0.001,"
          + "\"value\":0.001983,\"ratio\":1.983}]");

      CliRun result = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.out())
          .contains("REGRESSION pipe-bw/65536 bandwidth: 1.5.19-4 -> 1.5.24-2: 3.18 GB/s -> 1.092 GB/s (2.91x less) on lab-a")
          .contains("REGRESSION faults faults-per-op: 1.5.19-4 -> 1.5.24-2: 0.001 -> 0.001983 (x1.98) on lab-b");
    }
  }

  @Test
  void aRegressionPlacedWithinARangeOfVersionsSaysWhichVersionsItMayStartAt() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportRegressions("[{\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"machine\":\"xp-lab-01\","
          + "\"unit\":\"us\",\"baselineVersion\":\"1.5.20-1\",\"version\":\"1.5.21-1\",\"baselineValue\":18.0,"
          + "\"value\":19.8,\"ratio\":1.1,\"firstSuspect\":\"1.5.20-1\",\"lastSuspect\":\"1.5.22-1\"},"
          + "{\"benchmark\":\"read-64b\",\"metric\":\"time-per-op\",\"machine\":\"xp-lab-01\","
          + "\"unit\":\"us\",\"baselineVersion\":\"1.5.20-1\",\"version\":\"1.5.21-1\",\"baselineValue\":18.0,"
          + "\"value\":36,\"ratio\":2,\"firstSuspect\":\"1.5.21-1\",\"lastSuspect\":\"1.5.21-1\"}]");

      CliRun result = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.out())
          .contains("REGRESSION write-64b time-per-op: 1.5.20-1 -> 1.5.21-1 (starts between 1.5.20-1 and 1.5.22-1):"
              + " 18 us -> 19.8 us (x1.1) on xp-lab-01")
          .contains("REGRESSION read-64b time-per-op: 1.5.20-1 -> 1.5.21-1: 18 us -> 36 us (x2) on xp-lab-01");
    }
  }

  @Test
  void theLinesOfSeveralFilesInOneUploadNameTheirMachineAndTheirProductWhenThereAreSeveral() throws Exception {
    String step = "\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"unit\":\"us\","
        + "\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":18.0,\"value\":46.8,"
        + "\"ratio\":2.6";
    try (FakeServer server = FakeServer.start()) {
      server.reportRegressions("[{\"product\":\"cygwin\",\"machine\":\"xp-lab-01\"," + step + "}]");
      CliRun oneProduct = upload(server.url(), runFile(UUID.randomUUID().toString()).toString(),
          runFile(UUID.randomUUID().toString()).toString());
      server.reportRegressions("[{\"product\":\"cygwin\",\"machine\":\"xp-lab-01\"," + step + "},"
          + "{\"product\":\"msys2\",\"machine\":\"win11-lab-02\"," + step + "}]");
      server.reportWaiting("[{\"product\":\"msys2\",\"machine\":\"win11-lab-03\"," + step
          + ",\"note\":\"waiting for one more build\"}]");
      CliRun twoProducts = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(oneProduct.out())
          .contains("REGRESSION write-64b time-per-op: 1.5.19-4 -> 1.5.24-2: 18 us -> 46.8 us (x2.6) on xp-lab-01")
          .doesNotContain("cygwin 1.5.19-4");
      assertThat(twoProducts.out())
          .contains("REGRESSION write-64b time-per-op: cygwin 1.5.19-4 -> 1.5.24-2: 18 us -> 46.8 us (x2.6) on xp-lab-01")
          .contains("REGRESSION write-64b time-per-op: msys2 1.5.19-4 -> 1.5.24-2: 18 us -> 46.8 us (x2.6) on win11-lab-02")
          .contains("WAITING write-64b time-per-op: msys2 1.5.19-4 -> 1.5.24-2: 18 us -> 46.8 us (x2.6) on win11-lab-03");
    }
  }

  @Test
  void aRunThatMovedKnownRegressionsSaysItWasAReattribution() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportSummaries("[{\"id\":7,\"change\":\"opened\",\"url\":\"/summaries/7\"}]");

      CliRun result = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(result.out())
          .contains("SUMMARY opened " + server.url() + "/summaries/7 (no new regression: regressions found before at a "
              + "later version now belong to version 1.5.24-2, the first to show them: a re-attribution)")
          .contains("0 regressions; 1 run moved regressions found before to an earlier version (a re-attribution");
    }
  }

  @Test
  void aBranchBuildsInconclusiveChangeIsSaidWithoutFailingTheCheck() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportInconclusive("[{\"product\":\"mylib\",\"machine\":\"ci-ubuntu\",\"benchmark\":\"BM_StringCopy/64\","
          + "\"metric\":\"cpu-time\",\"unit\":\"ns\",\"baselineVersion\":\"v1.0.4\",\"version\":\"v1.0.7-pr45\","
          + "\"baselineValue\":10.01,\"value\":14.01,\"ratio\":1.4,\"pValue\":0.0004,\"note\":\"inconclusive: the "
          + "default branch would report it once one more build shows it; a branch build is judged once, so it does "
          + "not fail the check\"}]");

      CliRun result = upload(server.url(), "--fail-on-regression", runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.exitCode()).as("not a regression").isEqualTo(ExitCode.OK);
      assertThat(result.out())
          .contains("INCONCLUSIVE BM_StringCopy/64 cpu-time: v1.0.4 -> v1.0.7-pr45: 10.01 ns -> 14.01 ns (x1.4) on "
              + "ci-ubuntu: inconclusive: the default branch would report it once one more build shows it")
          .contains("0 regressions, 1 inconclusive change (a branch build: not failing the check)")
          .doesNotContain("WAITING", "waiting for one more build");
    }
  }

  @Test
  void aReattributionNamesTheSummarysVersionNotTheRunThatCompletedItsSession() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      // the answer to the last run of a bisection's session (1.5.24-2): the step moved to the middle version
      server.reportSummaries("[{\"id\":8,\"change\":\"opened\",\"url\":\"/summaries/8\",\"product\":\"cygwin\","
          + "\"version\":\"1.5.21-1\"}]");

      CliRun result = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(result.out())
          .contains("SUMMARY opened " + server.url() + "/summaries/8 (no new regression: regressions found before at a "
              + "later version now belong to version 1.5.21-1, the first to show them: a re-attribution)")
          .doesNotContain("belong to version 1.5.24-2");
    }
  }

  @Test
  void regressionsFailTheBuildOnlyWhenAskedTo() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportRegressions("[{\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"machine\":\"xp-lab-01\","
          + "\"unit\":\"us\",\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":18.0123,"
          + "\"value\":48.02,\"ratio\":2.66595}]");

      CliRun lenient = upload(server.url(), runFile(UUID.randomUUID().toString()).toString());
      CliRun strict = upload(server.url(), "--fail-on-regression", runFile(UUID.randomUUID().toString()).toString());

      assertThat(lenient.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(strict.exitCode()).isEqualTo(ExitCode.REGRESSION);
      assertThat(strict.out())
          .contains("REGRESSION write-64b time-per-op: 1.5.19-4 -> 1.5.24-2: 18.01 us -> 48.02 us (x2.67) on xp-lab-01\n"
              + "(values above: trimmed means, the level the server compares per version; a run's own table shows"
              + " medians)\n");
    }
  }

  @Test
  void anUnconfirmedRegressionFailsTheCulpritBuildUnlessTheTeamWaitsForConfirmation() throws Exception {
    String write64b = "{\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"unit\":\"us\","
        + "\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":18.0,\"value\":48.0,"
        + "\"ratio\":2.667,\"confirmed\":";
    try (FakeServer server = FakeServer.start()) {
      server.reportRegressions("[" + write64b + "false}]");
      CliRun culprit = upload(server.url(), "--fail-on-regression", runFile(UUID.randomUUID().toString()).toString());
      CliRun waiting = upload(server.url(), "--fail-on", "confirmed", runFile(UUID.randomUUID().toString()).toString());
      server.reportRegressions("[]");
      server.reportConfirmed("[" + write64b + "true}]");
      CliRun next = upload(server.url(), "--fail-on", "confirmed", runFile(UUID.randomUUID().toString()).toString());
      CliRun nextStrict = upload(server.url(), "--fail-on-regression", runFile(UUID.randomUUID().toString()).toString());
      CliRun misspelt = upload(server.url(), "--fail-on", "sometimes", runFile(UUID.randomUUID().toString()).toString());

      assertThat(culprit.exitCode()).isEqualTo(ExitCode.REGRESSION);
      assertThat(culprit.out()).contains("REGRESSION write-64b time-per-op: 1.5.19-4 -> 1.5.24-2",
          "(unconfirmed: waiting for the next build)").endsWith("exit 3: 1 regression (--fail-on-regression)\n");
      assertThat(waiting.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(next.exitCode()).isEqualTo(ExitCode.REGRESSION);
      assertThat(next.out()).contains("CONFIRMED write-64b time-per-op: 1.5.19-4 -> 1.5.24-2")
          .as("the closing line agrees with the exit code and says why")
          .contains("1 run uploaded, 0 rejected, 0 waiting in the spool, 0 regressions, 1 confirmed\n")
          .endsWith("exit 3: 1 confirmed regression (--fail-on confirmed)\n");
      assertThat(nextStrict.exitCode()).as("the culprit build failed already").isEqualTo(ExitCode.OK);
      assertThat(misspelt.exitCode()).isEqualTo(ExitCode.USAGE);
      assertThat(misspelt.err()).contains("expected regression or confirmed");
    }
  }

  @Test
  void aSmallerStepWaitingForOneMoreBuildIsSaidAndDoesNotFailTheBuild() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      server.reportWaiting("[{\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"unit\":\"us\","
          + "\"baselineVersion\":\"1.5.19-4\",\"version\":\"1.5.24-2\",\"baselineValue\":18.0,\"value\":23.4,"
          + "\"ratio\":1.3,\"note\":\"waiting for one more build\"}]");

      CliRun strict = upload(server.url(), "--fail-on-regression", runFile(UUID.randomUUID().toString()).toString());

      assertThat(strict.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(strict.out()).contains("WAITING write-64b time-per-op: 1.5.19-4 -> 1.5.24-2: 18 us -> 23.4 us (x1.3):"
          + " waiting for one more build");
      assertThat(strict.out()).as("the change counted apart from the runs waiting in the spool")
          .contains("1 run uploaded, 0 rejected, 0 waiting in the spool, 0 regressions, 1 change waiting for one more"
              + " build");
    }
  }

  @Test
  void aRefusedTokenPrintsTheServersDetailAndKeepsOnlyWhatWaitedBefore() throws Exception {
    String waiting = UUID.randomUUID().toString();
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertThat(upload("http://127.0.0.1:" + port, runFile(waiting).toString()).exitCode()).isEqualTo(ExitCode.SPOOLED);
    try (FakeServer server = new FakeServer(port)) {
      server.then(401, "{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
          + "\"detail\":\"the API token is not valid (unknown or revoked)\"}");
      String id = UUID.randomUUID().toString();

      CliRun result = upload(server.url(), runFile(id).toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(result.err()).as("an error, on stderr")
          .contains("the server refused the token (HTTP 401): the API token is not valid (unknown or revoked); 1 run"
              + " left in " + folder());
      assertThat(result.out()).doesNotContain("refused")
          .contains("1 file of this upload not kept in the spool")
          .as("the run that waited before is the only one left: this upload's file left the spool")
          .contains("0 runs uploaded, 0 rejected, 1 waiting in the spool, 0 regressions");
      assertThat(folder().resolve(id + ".json")).doesNotExist();
      assertThat(folder().resolve(waiting + ".json")).exists();

      CliRun good = upload(server.url(), runFile(id).toString());

      assertThat(good.exitCode()).as(good.out()).isEqualTo(ExitCode.OK);
      assertThat(server.stored()).containsOnlyKeys(waiting, id);
    }
  }

  @Test
  void aServerUrlWithAnExtraPathIsNoPerftrackServerNotARefusedToken() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      CliRun forbidden = upload(server.url() + "/elsewhere", runFile(UUID.randomUUID().toString()).toString());
      CliRun notFound = upload(server.url() + "/perftrack", runFile(UUID.randomUUID().toString()).toString());

      assertThat(forbidden.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(forbidden.err()).contains("no perftrack server at this URL: POST " + server.url()
          + "/elsewhere/api/v1/runs answered HTTP 403").doesNotContain("token");
      assertThat(forbidden.out()).doesNotContain("no perftrack server").doesNotContain("token");
      assertThat(notFound.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(notFound.err()).contains("no perftrack server at this URL: POST " + server.url()
          + "/perftrack/api/v1/runs answered HTTP 404")
          .as("the file sent left the spool again: nothing is left in it")
          .contains("(e.g. http://host:8080); 0 runs left in " + folder());
      assertThat(notFound.out()).contains("1 file of this upload not kept in the spool",
              "0 runs uploaded, 0 rejected, 0 waiting in the spool, 0 regressions");
      assertThat(server.requests()).as("neither is retried").isEqualTo(1);
    }
  }

  @Test
  void aServerUrlWithoutSchemeIsAUsageErrorBeforeAnythingIsSpooled() throws Exception {
    CliRun result = upload("localhost:8080", runFile(UUID.randomUUID().toString()).toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("'localhost:8080' has no scheme: give it with its scheme, e.g. http://localhost:8080");
    assertThat(spool()).doesNotExist();
  }

  @Test
  void anotherToolsFileIsConvertedHereAndSentAsTheRunTheServersConverterMakes() throws Exception {
    String file = """
        {"results": [{"command": "./write_64b sample 100000", "mean": 0.1, "stddev": 0.001,
          "times": [0.101, 0.099, 0.1]}]}
        """;
    Path hyperfine = Files.writeString(home.resolve("hf.json"), file);
    String id = "5d1f2c3a-9b8e-4f70-a1d2-3c4b5a6d7e8f";
    try (FakeServer server = FakeServer.start()) {
      CliRun result = upload(server.url(), "--format", "hyperfine", "--product", "cygwin", "--version", "1.5.24-2",
          "--machine", "ci 01", "--run-id", id, hyperfine.toString());

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCode.OK);
      assertThat(server.stored()).containsOnlyKeys(id);
      RunUpload sent = WireJson.MAPPER.readValue(server.stored().get(id), RunUpload.class);
      assertThat(sent).isEqualTo(Formats.byName("hyperfine").convert(file.getBytes(StandardCharsets.UTF_8), "body",
          new RunContext("cygwin", "1.5.24-2", "ci 01", id)));
      assertThat(sent.suite()).isEqualTo("hyperfine");
      assertThat(sent.machine().name()).isEqualTo("ci 01");
      assertThat(sent.results()).singleElement().satisfies(r -> {
        assertThat(r.benchmark()).isEqualTo("./write_64b sample 100000");
        assertThat(r.samples()).containsExactly(0.101, 0.099, 0.1);
      });
      assertThat(FakeServer.parameter(server.queries().get(0), "format")).as("the server gets a run, not the file")
          .isNull();
      assertThat(server.contentTypes()).singleElement().asString().startsWith("application/json");
      assertThat(folder().resolve("sent/" + id + ".json")).exists();
    }
  }

  @Test
  void aCutOffToolsFileIsRefusedNamingTheLineItEndsOnAndNothingIsSpooledOrSent() throws Exception {
    Path hyperfine = Files.writeString(home.resolve("hf.json"), "{\"results\": [{\"command\": \"parse\",\n"
        + "  \"times\": [0.101, 0.0");
    try (FakeServer server = FakeServer.start()) {
      CliRun result = upload(server.url(), "--product", "mytool", "--version", "v1.2.0", hyperfine.toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(result.err()).contains(hyperfine + ": truncated JSON: the file ends at line 2, column 23 inside an"
          + " unfinished value; nothing was sent");
      assertThat(server.requests()).isZero();
      assertThat(spool()).satisfiesAnyOf(s -> assertThat(s).doesNotExist(), s -> assertThat(s).isEmptyDirectory());
    }
  }

  @Test
  void aCiJobRunAgainSendsTheSameFileAsTheSameRunAndABranchBuildOfItIsAnother() throws Exception {
    String file = "{\"results\": [{\"command\": \"parse\", \"times\": [0.101, 0.099, 0.1]}]}";
    Path hyperfine = Files.writeString(home.resolve("hf.json"), file);
    String[] tags = {"--format", "hyperfine", "--product", "mytool", "--version", "v1.2.0", "--machine", "gha"};
    try (FakeServer server = FakeServer.start()) {
      CliRun first = upload(server.url(), concat(tags, hyperfine.toString()));
      CliRun again = upload(server.url(), concat(tags, hyperfine.toString()));
      CliRun branch = upload(server.url(), concat(tags, "--branch", "pr-1", hyperfine.toString()));

      assertThat(first.exitCode()).as(first.out() + first.err()).isEqualTo(ExitCode.OK);
      assertThat(again.exitCode()).as(again.out() + again.err()).isEqualTo(ExitCode.OK);
      assertThat(again.out()).contains("(HTTP 200, the server already had it)");
      assertThat(branch.out()).contains("(HTTP 201)");
      // two runs stored (the branch build is another run); the first is the id the server gives the file.
      // stored() is an unordered copy, so the ids are looked up, not taken by position
      assertThat(server.stored()).hasSize(2)
          .containsKey(org.perftrack.wire.FileRunId.of("hyperfine", "mytool", "v1.2.0", "gha", null,
              file.getBytes(StandardCharsets.UTF_8)));
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void anotherToolsFileStaysInTheSpoolAsItsRunUntilTheServerHasItAndAResendIsTheSameRun() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path hyperfine = Files.writeString(home.resolve("hf.json"), "{\"results\": [{\"command\": \"parse\", "
        + "\"times\": [0.101, 0.099]}]}\n");

    CliRun down = upload("http://127.0.0.1:" + port, "--format", "hyperfine", "--product", "cygwin",
        "--version", "1.5.24-2", hyperfine.toString());

    assertThat(down.exitCode()).isEqualTo(ExitCode.SPOOLED);
    Path[] waiting;
    try (var files = Files.list(folder())) {
      waiting = files.filter(p -> p.toString().endsWith(".json")).toArray(Path[]::new);
    }
    assertThat(waiting).hasSize(1);
    String id = waiting[0].getFileName().toString().replace(".json", "");
    try (FakeServer server = new FakeServer(port)) {
      server.then(503, "{}");
      server.then(201, "{\"id\":\"" + id + "\",\"regressions\":[]}");
      CliRun up = upload(server.url());
      assertThat(up.exitCode()).isEqualTo(ExitCode.OK);
      assertThat(server.requests()).isEqualTo(2);
      assertThat(waiting[0]).doesNotExist();
      RunUpload sent = WireJson.MAPPER.readValue(folder().resolve("sent/" + id + ".json").toFile(), RunUpload.class);
      assertThat(sent.id()).isEqualTo(id);
      assertThat(sent.suite()).isEqualTo("hyperfine");
      assertThat(sent.machine().name()).as("the host name").isNotBlank();
    }
  }

  @Test
  void anUnknownFormatIsAUsageErrorNamingTheKnownOnes() throws Exception {
    CliRun result = upload("http://127.0.0.1:9", "--format", "criterium", "--product", "p", "--version", "1",
        home.resolve("x.json").toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("unknown format 'criterium'").contains("hyperfine, gbench, jmh");
  }

  @Test
  void anotherToolsFileWithoutVersionIsAUsageError() throws Exception {
    Path hyperfine = Files.writeString(home.resolve("hf.json"), "{\"results\": []}");

    CliRun result = upload("http://127.0.0.1:9", "--format", "hyperfine", "--product", "cygwin", hyperfine.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("--format hyperfine needs --version\n");
  }

  @Test
  void fileThatDoesNotParseIsNamedAndNothingIsSent() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      Path good = runFile(UUID.randomUUID().toString());
      Path bad = Files.writeString(home.resolve("bad.json"), "{not json");

      CliRun result = upload(server.url(), good.toString(), bad.toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(result.err()).contains("bad.json");
      assertThat(server.requests()).isZero();
    }
  }

  private static final Path GOLDEN = Path.of("../formats/src/test/resources/golden");

  @Test
  void aToolsFileWithoutFormatIsRecognisedAndSentInItsFormat() throws Exception {
    Path bench = Files.copy(GOLDEN.resolve("go-bench/count3-go1.19.txt"), home.resolve("bench.txt"));
    try (FakeServer server = FakeServer.start()) {
      CliRun result = upload(server.url(), "--product", "mylib", "--version", "1.2", bench.toString());

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCode.OK);
      assertThat(result.out()).contains("bench.txt: a go test -bench file (format go-bench)");
      RunUpload sent = WireJson.MAPPER.readValue(server.stored().values().iterator().next(), RunUpload.class);
      assertThat(sent.suite()).isEqualTo("go-bench");
      assertThat(sent.results()).isNotEmpty();
    }
  }

  @Test
  void aRecognisedToolsFileWithoutVersionSaysWhatItIsAndWhatItNeeds() throws Exception {
    Path bench = Files.copy(GOLDEN.resolve("gbench/repetitions.json"), home.resolve("bench.json"));

    CliRun result = upload("http://127.0.0.1:9", bench.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains(bench + " is a Google Benchmark file (--format gbench): it needs --product"
        + " and --version");
  }

  @Test
  void aRecognisedToolsFileWithAProductButNoVersionNamesJustTheVersion() throws Exception {
    Path bench = Files.copy(GOLDEN.resolve("gbench/repetitions.json"), home.resolve("bench.json"));

    CliRun noVersion = upload("http://127.0.0.1:9", "--product", "mylib", bench.toString());
    CliRun noProduct = upload("http://127.0.0.1:9", "--version", "1.0.0", bench.toString());

    assertThat(noVersion.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noVersion.err()).contains("(--format gbench): it needs --version\n").doesNotContain("needs --product");
    assertThat(noProduct.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noProduct.err()).contains("(--format gbench): it needs --product\n").doesNotContain("--version\n");
  }

  @Test
  void aFileOfAnotherFormatThanGivenIsNamedAndNothingIsSpooled() throws Exception {
    Path bench = Files.copy(GOLDEN.resolve("pyperf/timeit-2.10.json"), home.resolve("bench.json"));

    CliRun result = upload("http://127.0.0.1:9", "--format", "pytest-benchmark", "--product", "p", "--version", "1",
        bench.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(result.err()).contains("bench.json: this looks like a pyperf file, not pytest-benchmark"
        + " (use --format pyperf)");
    assertThat(spool()).satisfiesAnyOf(s -> assertThat(s).doesNotExist(), s -> assertThat(s).isEmptyDirectory());
  }

  @Test
  void criterionsFolderIsConvertedIntoOneRunOfItsNewMeasurements() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      CliRun result = upload(server.url(), "--product", "mylib", "--version", "1.2",
          GOLDEN.resolve("criterion/0.3.6/criterion").toString());

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCode.OK);
      assertThat(result.out()).contains("criterion: a Criterion.rs folder (format criterion)");
      RunUpload sent = WireJson.MAPPER.readValue(server.stored().values().iterator().next(), RunUpload.class);
      assertThat(sent.suite()).isEqualTo("criterion");
      assertThat(sent.results()).extracting(RunUpload.ResultUpload::benchmark).contains("fib 15", "sum/100");
    }
  }

  @Test
  void aFolderOfNoToolIsRefusedNamingTheFoldersThatCanBeSent() throws Exception {
    Path folder = Files.createDirectories(home.resolve("results"));
    Files.writeString(folder.resolve("notes.txt"), "nothing here");

    CliRun result = upload("http://127.0.0.1:9", "--product", "p", "--version", "1", folder.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(result.err()).contains("results: a folder that is neither Criterion.rs's target/criterion")
        .contains("folders are sent for criterion and asv");
  }
}
