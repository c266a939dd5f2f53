package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The Java 8 agent carries the server's converters ({@code formats}): {@code upload} converts another tool's file
 * into the run the server would make of it ({@code POST /api/v1/runs?format=}), spools that run and sends it. A file
 * that does not convert is refused before anything is spooled or sent, with the server's reason; a server that is
 * away keeps the run in the spool; sending it twice stores it once.
 */
class AgentForeignUploadTest extends IntegrationTest {

  @TempDir
  Path home;

  private final String product = unique("mylib");
  private final String machine = unique("ci");

  private AgentProcess.Result upload(String server, String... more) throws Exception {
    String[] base = {"upload", "--server", server, "--token", TOKEN, "--spool", home.resolve("spool").toString(),
        "--retry-attempts", "2", "--retry-delay-ms", "50"};
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return AgentProcess.run(home, args);
  }

  @Test
  void aGoogleBenchmarkFileWaitsInTheSpoolWhileTheServerIsAwayAndIsStoredOnceWhenSentTwice() throws Exception {
    Path file = Files.copy(Path.of("../formats/src/test/resources/golden/gbench/repetitions.json"),
        home.resolve("bench.json"));
    String id = UUID.randomUUID().toString();
    try (Relay server = new Relay()) {
      AgentProcess.Result away = upload(server.url(), "--format", "gbench", "--product", product,
          "--version", "1.0.0", "--machine", machine, "--run-id", id, file.toString());

      assertThat(away.exitCode()).as(away.out()).isEqualTo(4);
      assertThat(AgentProcess.waiting(home.resolve("spool"))).singleElement()
          .satisfies(p -> assertThat(p.getFileName()).hasToString(id + ".json"));

      server.forwardTo(port);
      AgentProcess.Result back = upload(server.url());
      AgentProcess.Result again = upload(server.url(), "--format", "gbench", "--product", product, "--version",
          "1.0.0", "--machine", machine, "--run-id", id, file.toString());

      assertThat(back.exitCode()).as(back.out()).isZero();
      assertThat(back.out()).as("the run's page, not its spool file").contains("uploaded "
          + server.url().replaceAll("/+$", "") + "/runs/" + id + " (HTTP 201)").doesNotContain(".upload");
      assertThat(again.exitCode()).as(again.out()).isZero();
      assertThat(again.out()).contains("HTTP 200, the server already had it");
    }
    assertThat(jdbc.sql("select count(*) from run r join product p on p.id = r.product_id "
            + "where r.id = ?::uuid and p.name = ?").param(id).param(product).query(Long.class).single())
        .isEqualTo(1);
    assertThat(jdbc.sql("select count(*) from result where run_id = ?::uuid").param(id).query(Long.class).single())
        .isPositive();
  }

  @Test
  void aFileWithoutFormatAndCriterionsFolderAreRecognisedAndStored() throws Exception {
    Path golden = Path.of("../formats/src/test/resources/golden");
    Path bench = Files.copy(golden.resolve("gbench/repetitions.json"), home.resolve("bench.json"));
    Path criterion = golden.resolve("criterion/0.3.6/criterion");

    AgentProcess.Result result = upload("http://localhost:" + port, "--product", product, "--version", "2.0.0",
        "--machine", machine, bench.toString(), criterion.toString());

    assertThat(result.exitCode()).as(result.out()).isZero();
    assertThat(result.out()).contains("bench.json: a Google Benchmark file (format gbench)")
        .contains("criterion: a Criterion.rs folder (format criterion)").contains("2 runs uploaded");
    assertThat(jdbc.sql("""
        select r.suite, s.benchmark from run r join product p on p.id = r.product_id
        join result x on x.run_id = r.id join series s on s.id = x.series_id
        where p.name = ? and s.metric in ('real-time', 'time-per-iteration') order by 1, 2""")
        .param(product).query((rs, i) -> rs.getString(1) + " " + rs.getString(2)).list())
        .containsExactly("criterion fib 15", "criterion sum/100", "criterion sum/1000",
            "gbench BM_StringCopy/4096", "gbench BM_StringCopy/64");
  }

  @Test
  void aFileOfAnotherFormatThanGivenIsRefusedBeforeAnythingIsSpooled() throws Exception {
    Path bench = Files.copy(Path.of("../formats/src/test/resources/golden/gbench/repetitions.json"),
        home.resolve("bench.json"));

    AgentProcess.Result result = upload("http://localhost:" + port, "--format", "hyperfine", "--product", product,
        "--version", "2.0.0", bench.toString());

    assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
    assertThat(result.out()).contains("bench.json: this looks like a Google Benchmark file, not hyperfine"
        + " (use --format gbench)");
    assertThat(home.resolve("spool")).satisfiesAnyOf(
        spool -> assertThat(spool).doesNotExist(), spool -> assertThat(spool).isEmptyDirectory());
  }

  /**
   * A cut-off file is refused by the agent's own converter, naming the line and column it ends on as the server does
   * for the same file; nothing is spooled and no connection reaches the server.
   */
  @Test
  void aTruncatedFileIsRefusedBeforeAnythingIsSpooledOrSentNamingTheLineAsTheServerDoes() throws Exception {
    byte[] whole = Files.readAllBytes(Path.of("../formats/src/test/resources/golden/gbench/repetitions.json"));
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length * 2 / 3);
    Path bench = Files.write(home.resolve("cut.json"), cut);
    long lines = new String(cut, java.nio.charset.StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count() + 1;

    AgentProcess.Result result;
    try (Relay server = new Relay()) {
      server.forwardTo(port);
      result = upload(server.url(), "--product", product, "--version", "2.0.1", bench.toString());
      assertThat(server.accepted()).as("connections to the server").isZero();
    }

    assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
    java.util.regex.Matcher said = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(bench.toString())
        + ": (truncated JSON: the file ends at line " + lines + ", column \\d+ inside an unfinished value); nothing was sent")
        .matcher(result.out());
    assertThat(said.find()).as(result.out()).isTrue();
    assertThat(home.resolve("spool")).satisfiesAnyOf(
        spool -> assertThat(spool).doesNotExist(), spool -> assertThat(spool).isEmptyDirectory());
    Http.Response server = postFile(cut, "2.0.1");
    assertThat(server.status()).isEqualTo(400);
    assertThat(server.json().get("detail").asString()).isEqualTo("format 'gbench': body: " + said.group(1));
  }

  /**
   * What the agent stores is the run the server makes of the same file: the server, sent that file with the same
   * tags, finds it has that run already (same id, same content hash), and the results are the file's.
   */
  @Test
  void aValidFileIsStoredAsTheRunTheServerWouldHaveConverted() throws Exception {
    Path golden = Path.of("../formats/src/test/resources/golden/gbench/repetitions.json");
    Path bench = Files.copy(golden, home.resolve("bench.json"));

    AgentProcess.Result result = upload("http://localhost:" + port, "--product", product, "--version", "2.0.2",
        "--machine", machine, bench.toString());

    assertThat(result.exitCode()).as(result.out()).isZero();
    assertThat(result.out()).contains("bench.json: a Google Benchmark file (format gbench)").contains("(HTTP 201)");
    Http.Response server = postFile(Files.readAllBytes(golden), "2.0.2");
    assertThat(server.status()).as(server.body()).isEqualTo(200);
    String id = server.json().get("id").asString();
    assertThat(result.out()).contains("/runs/" + id + " (HTTP 201)");
    Map<String, List<Double>> inFile = new TreeMap<>();
    for (JsonNode b : Json.MAPPER.readTree(Files.readAllBytes(golden)).get("benchmarks")) {
      if (b.get("run_type").asString().equals("iteration")) {
        inFile.computeIfAbsent(b.get("name").asString(), k -> new ArrayList<>()).add(b.get("real_time").doubleValue());
      }
    }
    assertThat(jdbc.sql("""
        select s.benchmark, x.samples from result x join series s on s.id = x.series_id
        where x.run_id = ?::uuid and s.metric = 'real-time' order by 1""").param(id)
        .query((rs, i) -> Map.entry(rs.getString(1), List.of((Double[]) rs.getArray(2).getArray()))).list())
        .containsExactlyElementsOf(inFile.entrySet());
  }

  /** The file as a CI job would send it with curl: {@code POST /api/v1/runs?format=gbench} with the same tags. */
  private Http.Response postFile(byte[] file, String version) {
    return http().postBytes("/api/v1/runs?format=gbench&product=" + product + "&version=" + version + "&machine="
        + machine, file, "application/octet-stream", TOKEN);
  }
}
