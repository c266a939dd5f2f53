package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;

/**
 * The Java 8 agent does not carry the converters: {@code upload --format gbench} spools the file with its
 * tags and a run id, and the real server converts it ({@code POST /api/v1/runs?format=}). A server that is
 * away keeps the file in the spool; sending it twice stores it once.
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
          .satisfies(p -> assertThat(p.getFileName()).hasToString(id + ".upload"));

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

  /** A tool's JSON file cut off is refused by the agent itself, naming the line it ends on; nothing is spooled. */
  @Test
  void aTruncatedFileIsRefusedBeforeAnythingIsSpooledNamingTheLineItEndsOn() throws Exception {
    byte[] whole = Files.readAllBytes(Path.of("../formats/src/test/resources/golden/gbench/repetitions.json"));
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length * 2 / 3);
    Path bench = Files.write(home.resolve("cut.json"), cut);
    long lines = new String(cut, java.nio.charset.StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count() + 1;

    AgentProcess.Result result = upload("http://localhost:" + port, "--product", product, "--version", "2.0.1",
        bench.toString());

    assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
    assertThat(result.out()).contains("cut.json: truncated JSON: the file ends at line " + lines
        + " inside an unfinished value; nothing was sent");
    assertThat(home.resolve("spool")).satisfiesAnyOf(
        spool -> assertThat(spool).doesNotExist(), spool -> assertThat(spool).isEmptyDirectory());
  }
}
