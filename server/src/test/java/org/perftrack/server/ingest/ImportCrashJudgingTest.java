package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * Issue 26 item 1: a server killed in the middle of a bulk import, after some of its batches were stored but before
 * the import judged them, judges them when it starts again; importing the whole file again then answers counts
 * that add up to its lines and leaves the same regressions as an import that never crashed.
 */
class ImportCrashJudgingTest {

  static final String TOKEN = "import-crash-token-0123456789";
  static final int MACHINES = 5;
  static final int STEP_AT = 20;

  @TempDir
  Path dir;

  @Test
  void stepsOfBatchesStoredBeforeAKillAreJudgedAfterTheRestartAndARepeatedImportAddsUp() throws Exception {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    List<String> file = lines("crashed", 300);
    try (ServerProcess first = start(data, "first.log")) {
      PipedOutputStream body = new PipedOutputStream();
      PipedInputStream in = new PipedInputStream(body, 1 << 16);
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(HttpRequest.newBuilder(URI.create(first.base() + "/api/v1/runs:import"))
          .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
          .POST(HttpRequest.BodyPublishers.ofInputStream(() -> in)).build(), HttpResponse.BodyHandlers.discarding());
      // the first 1,000 lines (five batches); the body stays open, so the import has not judged anything yet. Four
      // batches are stored at least (the last lines may wait in a buffer on their way)
      write(body, file.subList(0, 1000));
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
          .until(() -> points(first.http(), "crashed", "m0"), n -> n >= 160);
      assertThat(steps(first.http(), "crashed")).as("nothing judged before the end of the import").isEmpty();
      first.kill();
    }

    try (ServerProcess second = start(data, "second.log")) {
      Http http = second.http();
      String base = second.base();
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
          .until(() -> !steps(http, "crashed").isEmpty());
      JsonNode clean = importLines(http, base, lines("clean", 300).subList(0, 800));
      assertThat(clean.get("created").asInt()).isEqualTo(800);
      assertThat(steps(http, "crashed")).as("as an import that never crashed").isEqualTo(steps(http, "clean"))
          .hasSize(MACHINES);

      JsonNode again = importLines(http, base, file);
      assertThat(again.get("unchanged").asInt()).isBetween(800, 1000);
      assertThat(again.get("created").asInt() + again.get("unchanged").asInt()).isEqualTo(1500);
      assertThat(again.get("failed").asInt()).isZero();
      importLines(http, base, lines("clean", 300).subList(800, 1500));
      assertThat(steps(http, "crashed")).isEqualTo(steps(http, "clean"));
    }
  }

  private static ServerProcess start(Path data, String log) {
    return ServerProcess.start(data, data.resolveSibling(log), "--perftrack.bootstrap-token=" + TOKEN);
  }

  /** Five machines measured at {@code versions} versions, version after version; write-64b doubles at 1.20. */
  private static List<String> lines(String product, int versions) {
    Random random = new Random(7);
    List<String> out = new ArrayList<>();
    for (int v = 1; v <= versions; v++) {
      for (int m = 0; m < MACHINES; m++) {
        double level = v >= STEP_AT ? 36 : 18;
        List<Double> samples = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          samples.add(level * (1 + 0.01 * random.nextGaussian()));
        }
        RunUpload run = Fixtures.run(product, "1." + v, "m" + m, new RunUpload.ResultUpload("write-64b",
            "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples));
        out.add(Fixtures.json(withId(run, new UUID(product.hashCode(), v * 100L + m))));
      }
    }
    return out;
  }

  private static RunUpload withId(RunUpload r, UUID id) {
    return new RunUpload(id.toString(), r.product(), r.version(), r.machine(), r.suite(), r.batch(), r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }

  private static void write(OutputStream body, List<String> lines) throws Exception {
    for (String line : lines) {
      body.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    body.flush();
  }

  private static JsonNode importLines(Http http, String base, List<String> lines) {
    Http.Response r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", lines) + "\n")));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static int points(Http http, String product, String machine) {
    Http.Response r = http.get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op");
    return r.status() == 200 ? r.json().get("points").size() : 0; // 404 until the series exists
  }

  /** The open regressions of a product as "machine version" (its name left out, to compare two products). */
  private static TreeSet<String> steps(Http http, String product) {
    TreeSet<String> out = new TreeSet<>();
    http.get("/api/v1/regressions?product=" + product).json()
        .forEach(r -> out.add(r.get("machine").asString() + " " + r.get("baselineVersion").asString() + " → "
            + r.get("version").asString()));
    return out;
  }
}
