package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/** POST /api/v1/runs:import through HTTP into PostgreSQL, detection and the mail outbox. */
class BulkImportTest extends IntegrationTest {

  /** write-64b slows from ~18 us to ~48 us at 2.0 (seed 003); fork stays; 3.0 is like 2.0. */
  private static List<RunUpload> history(String product, String machine, String... versions) {
    List<RunUpload> runs = new ArrayList<>();
    for (String v : versions) {
      double write = v.equals("1.0") ? 18.0 : 48.0;
      runs.add(run(product, v, machine, result("write-64b", write, write + 0.1, write - 0.1, write + 0.2, write - 0.2),
          result("fork", 75.0, 75.5, 74.5, 75.2, 74.8)));
    }
    return runs;
  }

  private static String ndjson(List<RunUpload> runs) {
    StringBuilder text = new StringBuilder();
    runs.forEach(r -> text.append(json(r)).append('\n'));
    return text.toString();
  }

  @Test
  void goodLinesAreKeptBadLinesReportedByNumberAndAnOldStepIsNotMailed() {
    String product = unique("cygwin");
    List<RunUpload> runs = history(product, unique("xp"), "1.0", "2.0", "3.0");
    String body = json(runs.get(0)) + "\n{not json\n" + json(runs.get(1)) + "\n"
        + json(run(product, "2.5", "m", result("write-64b"))) + "\n\n" + json(runs.get(2)) + "\n";

    Http.Response r = importNdjson(body.getBytes(StandardCharsets.UTF_8), false);

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode report = r.json();
    assertThat(report.get("lines").asLong()).isEqualTo(6);
    assertThat(report.get("created").asInt()).isEqualTo(3);
    assertThat(report.get("failed").asInt()).isEqualTo(2);
    assertThat(report.get("errors").get(0).get("line").asLong()).isEqualTo(2);
    assertThat(report.get("errors").get(1).get("line").asLong()).isEqualTo(4);
    assertThat(report.get("errors").get(1).get("problems").get(0).get("field").asString())
        .isEqualTo("results[0].samples");
    assertThat(regressions(product)).containsExactly("write-64b 1.0->2.0");
    assertThat(report.get("regressions").asInt()).isEqualTo(1);
    assertThat(report.get("inDigestOnly").asInt()).as("2.0 is older than the series' newest, 3.0").isEqualTo(1);
    assertThat(outboxMails(product)).isZero();
    assertThat(summaries(product)).as("an old step still joins its summary, quietly").containsExactly("2.0: 1");
  }

  @Test
  void aBadLineIsDescribedInTheCallersTermsNeverWithJavaTypeNames() {
    String body = "{\"id\": 5, \"results\": {\"a\": 1}}\n[1, 2]\n{\"results\": [{\"samples\": {}}]}\n";

    Http.Response r = importNdjson(body.getBytes(StandardCharsets.UTF_8), false);

    assertThat(r.status()).as("no line could be stored: " + r.body()).isEqualTo(400);
    assertThat(r.json().get("fields")).hasSize(3);
    r.json().get("fields").forEach(f -> assertThat(f.get("message").asString())
        .startsWith("is not a run in JSON: must be")
        .doesNotContainPattern("\\b(java|tools\\.jackson|org\\.perftrack|com\\.fasterxml)\\.")
        .doesNotContain("RunUpload", "ResultUpload", "ArrayList"));
  }

  @Test
  void aLineThatIsNotJsonNamesItsColumnNotALineOfItsOwn() {
    String body = "{\"id\": \"3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41\"}\n{bad json\n";

    Http.Response r = importNdjson(body.getBytes(StandardCharsets.UTF_8), false);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    JsonNode second = null;
    for (JsonNode f : r.json().get("fields")) {
      if (f.get("field").asString().startsWith("line 2")) {
        second = f;
      }
    }
    assertThat(second).as(r.body()).isNotNull();
    assertThat(second.get("message").asString()).as("line 2 of the file is not 'line 1' of anything")
        .startsWith("is not a run in JSON: is not valid JSON: ").endsWith("(column 2)").doesNotContain("line 1");
  }

  @Test
  void importOpensTheSameRegressionsAsUploadsOneByOne() {
    String imported = unique("cygwin");
    String uploaded = unique("cygwin");
    importNdjson(ndjson(history(imported, "xp", "3.0", "1.0", "2.0")).getBytes(StandardCharsets.UTF_8), false);
    for (RunUpload run : history(uploaded, "xp", "1.0", "2.0", "3.0")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }

    assertThat(regressions(imported)).isNotEmpty().isEqualTo(regressions(uploaded));
    assertThat(summaries(imported)).isNotEmpty().isEqualTo(summaries(uploaded));
    assertThat(List.of(count("SELECT version_count FROM product WHERE name = ?", imported),
        count("SELECT version_count FROM product WHERE name = ?", uploaded)))
        .as("the product's count of versions, kept by a trigger, for both ways in").containsExactly(3L, 3L);
  }

  /**
   * More (machine, version) pairs than detection judges together (64), so the first passes of one chunk run while
   * the chunk before is reconciled: write-64b slows at 1.20 on both machines, fork slows at 1.30 on "b".
   */
  @Test
  void aLongHistoryImportedInAnyOrderOpensTheSameRegressionsAsUploadsInVersionOrder() {
    String imported = unique("cygwin");
    String uploaded = unique("cygwin");
    List<RunUpload> importedRuns = new ArrayList<>();
    List<RunUpload> uploadedRuns = new ArrayList<>();
    java.util.Random noise = new java.util.Random(7);
    for (int v = 0; v < 40; v++) {
      for (String machine : List.of("a", "b")) {
        double write = v < 20 ? 18.0 : 48.0;
        double fork = machine.equals("b") && v >= 30 ? 110.0 : 75.0;
        double[] w = new double[5];
        double[] f = new double[5];
        for (int k = 0; k < 5; k++) {
          w[k] = write * (1 + noise.nextGaussian() * 0.005);
          f[k] = fork * (1 + noise.nextGaussian() * 0.005);
        }
        importedRuns.add(run(imported, "1." + v, machine, result("write-64b", w), result("fork", f)));
        uploadedRuns.add(run(uploaded, "1." + v, machine, result("write-64b", w), result("fork", f)));
      }
    }
    java.util.Collections.shuffle(importedRuns, new java.util.Random(11));
    Http.Response answer = importNdjson(ndjson(importedRuns).getBytes(StandardCharsets.UTF_8), false);
    assertThat(answer.json().get("created").asInt()).as(answer.body()).isEqualTo(80);
    for (RunUpload run : uploadedRuns) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }

    assertThat(regressions(imported)).hasSize(3).isEqualTo(regressions(uploaded));
    assertThat(summaries(imported)).isEqualTo(summaries(uploaded));
  }

  /** Three batches, stored two at a time: a line repeating an earlier batch's run is unchanged, or a bad line. */
  @Test
  void aFileOfSeveralBatchesStoresEachRunOnceAndKnowsRepeatsAcrossBatches() {
    String product = unique("cygwin");
    List<RunUpload> runs = new ArrayList<>();
    for (int v = 0; v < 450; v++) {
      runs.add(run(product, "2." + v, "xp", result("fork", 75.0, 75.5, 74.5)));
    }
    RunUpload changed = runs.get(4);
    runs.add(runs.get(2)); // line 451: the run of line 3 again
    runs.add(new RunUpload(changed.id(), changed.product(), changed.version(), changed.machine(), changed.suite(),
        changed.batch(), changed.startedAt(), changed.finishedAt(), changed.attributes(),
        List.of(result("fork", 99.0)), changed.failures())); // line 452: the id of line 5, other content

    Http.Response answer = importNdjson(ndjson(runs).getBytes(StandardCharsets.UTF_8), false);

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.json().get("created").asInt()).isEqualTo(450);
    assertThat(answer.json().get("unchanged").asInt()).isEqualTo(1);
    assertThat(answer.json().get("failed").asInt()).isEqualTo(1);
    assertThat(answer.json().get("errors").get(0).get("line").asLong()).isEqualTo(452);
    assertThat(answer.json().get("errors").get(0).get("problems").get(0).get("field").asString()).isEqualTo("id");
    assertThat(count("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?", product))
        .isEqualTo(450);
    assertThat(count("""
        SELECT count(*) FROM detection_point d JOIN series s ON s.id = d.series_id JOIN product p ON p.id = s.product_id
        WHERE p.name = ?""", product)).isEqualTo(450);
  }

  @Test
  void aStepAtTheNewestVersionIsMailedAndAGzipBodyIsAccepted() throws IOException {
    String product = unique("cygwin");

    Http.Response r = importNdjson(gzip(ndjson(history(product, unique("xp"), "1.0", "2.0"))), true);

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().get("created").asInt()).isEqualTo(2);
    assertThat(r.json().get("mailed").asInt()).isEqualTo(1);
    assertThat(outboxMails(product)).isPositive();
  }

  @Test
  void importingTheSameFileAgainChangesNothing() {
    String product = unique("cygwin");
    byte[] file = ndjson(history(product, unique("xp"), "1.0", "2.0", "3.0")).getBytes(StandardCharsets.UTF_8);
    importNdjson(file, false);
    long results = count("SELECT count(*) FROM result x JOIN run r ON r.id = x.run_id JOIN product p"
        + " ON p.id = r.product_id WHERE p.name = ?", product);
    List<String> regressions = regressions(product);

    Http.Response again = importNdjson(file, false);

    assertThat(again.json().get("created").asInt()).isZero();
    assertThat(again.json().get("unchanged").asInt()).isEqualTo(3);
    assertThat(count("SELECT count(*) FROM result x JOIN run r ON r.id = x.run_id JOIN product p"
        + " ON p.id = r.product_id WHERE p.name = ?", product)).isEqualTo(results);
    assertThat(regressions(product)).isEqualTo(regressions);
    assertThat(count("SELECT version_count FROM product WHERE name = ?", product)).isEqualTo(3);
  }

  @Test
  void aRunIdAlreadyStoredWithOtherContentIsABadLineAndAllBadIsA400() {
    String product = unique("cygwin");
    RunUpload first = history(product, unique("xp"), "1.0").get(0);
    importNdjson((json(first) + "\n").getBytes(StandardCharsets.UTF_8), false);
    RunUpload changed = new RunUpload(first.id(), first.product(), "1.1", first.machine(), first.suite(), null,
        null, null, first.attributes(), first.results(), first.failures());

    Http.Response r = importNdjson((json(changed) + "\n").getBytes(StandardCharsets.UTF_8), false);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("line 1: id");
  }

  @Test
  void aLineWhoseUnitDoesNotFitItsSeriesStoresNothingNotEvenItsNewSeriesOrVersion() {
    String product = unique("cygwin");
    String machine = unique("xp");
    RunUpload good = run(product, "1.0", machine, result("write-64b", 18.0, 18.1, 17.9));
    // a new benchmark (its series would be new) beside one whose unit, MB/s, does not convert to us
    RunUpload bad = run(product, "1.1", machine, result("open-close", 5.0, 5.1, 4.9),
        new RunUpload.ResultUpload("write-64b", "time-per-op", "MB/s", RunUpload.HIGHER_IS_BETTER, List.of(1.0, 1.1)));
    RunUpload alsoGood = run(product, "1.2", machine, result("write-64b", 18.2, 18.0, 18.1));

    Http.Response r = importNdjson((json(good) + "\n" + json(bad) + "\n" + json(alsoGood) + "\n")
        .getBytes(StandardCharsets.UTF_8), false);

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().get("created").asInt()).isEqualTo(2);
    assertThat(r.json().get("failed").asInt()).isEqualTo(1);
    assertThat(r.json().get("errors").get(0).get("line").asLong()).isEqualTo(2);
    assertThat(count("SELECT count(*) FROM series s JOIN product p ON p.id = s.product_id WHERE p.name = ?"
        + " AND s.benchmark = 'open-close'", product)).as("the bad line's new series").isZero();
    assertThat(count("SELECT count(*) FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ?"
        + " AND v.name = '1.1'", product)).as("the bad line's new version").isZero();
    assertThat(count("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?", product))
        .isEqualTo(2);
  }

  @Test
  void aBodyThatBreaksOffIsReportedAtItsLineAndWhatWasStoredBeforeIsJudged() throws IOException {
    String product = unique("cygwin");
    List<String> versions = new ArrayList<>(List.of("1.0", "2.0"));
    for (int i = 1; i <= 300; i++) {
      versions.add("2." + i);
    }
    byte[] whole = gzip(ndjson(history(product, unique("xp"), versions.toArray(String[]::new))));
    // the gzip stream ends early (a dropped connection, a file cut short): the first 200 lines are a batch
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length * 9 / 10);

    Http.Response r = importNdjson(cut, true);

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    long created = r.json().get("created").asLong();
    assertThat(created).isBetween(200L, 301L);
    JsonNode error = r.json().get("errors").get(0);
    assertThat(error.get("line").asLong()).isEqualTo(created + 1);
    assertThat(error.get("problems").get(0).get("field").asString()).isEqualTo("body");
    assertThat(error.get("problems").get(0).get("message").asString()).contains("not read");
    assertThat(regressions(product)).as("the step in the stored lines is judged as if they came one by one")
        .contains("write-64b 1.0->2.0");

    Http.Response again = importNdjson(whole, true);
    assertThat(again.json().get("unchanged").asLong()).isEqualTo(created);
    assertThat(again.json().get("created").asLong()).isEqualTo(versions.size() - created);
    assertThat(again.json().get("failed").asLong()).isZero();
  }

  @Test
  void aCsvBodyThatIsNotGzipAfterAllIsA400NamingTheBody() {
    byte[] notGzip = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3};

    Http.Response r = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "text/csv").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(notGzip)));

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("body");
  }

  @Test
  void importNeedsAToken() {
    Http.Response r = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").POST(HttpRequest.BodyPublishers.ofString("{}\n")));

    assertThat(r.status()).isEqualTo(401);
  }

  @Test
  void aSpreadsheetInTheCsvLayoutIsImportedOnceWithRowsPerMeasurementMerged() {
    String product = unique("cygwin");
    String csv = """
        Product,Machine,Version,Benchmark,Metric,Unit,Direction,Value,Samples
        %1$s,xp,1.0,"write, 64 bytes",time-per-op,us,lower_is_better,18.1,
        %1$s,xp,1.0,"write, 64 bytes",time-per-op,us,lower_is_better,18.0,
        %1$s,xp,1.0,fork,time-per-op,us,lower_is_better,,75.0;75.5 74.9
        %1$s,xp,2.0,fork,time-per-op,us,lower_is_better,fast,
        %1$s,xp,2.0,"write, 64 bytes",time-per-op,us,lower_is_better,,48.2 47.9 48.4
        """.formatted(product);

    Http.Response first = importCsv(csv);
    Http.Response again = importCsv(csv);

    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.json().get("created").asInt()).isEqualTo(2);
    assertThat(first.json().get("lines").asLong()).as("the header is not a line of data").isEqualTo(5);
    assertThat(first.json().get("errors").get(0).get("line").asLong()).isEqualTo(5);
    assertThat(first.json().get("errors").get(0).get("problems").get(0).get("message").asString())
        .contains("'fast'");
    assertThat(again.json().get("unchanged").asInt()).isEqualTo(2);
    assertThat(again.json().get("created").asInt()).isZero();
    assertThat(jdbc.sql("""
        SELECT x.samples::text FROM result x JOIN series s ON s.id = x.series_id JOIN run r ON r.id = x.run_id
        JOIN version v ON v.id = r.version_id JOIN product p ON p.id = r.product_id
        WHERE p.name = ? AND v.name = '1.0' AND s.benchmark = 'write, 64 bytes'""").param(product)
        .query(String.class).single()).isEqualTo("{18.1,18}");
  }

  private Http.Response importCsv(String csv) {
    return http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "text/csv").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(csv)));
  }

  private Http.Response importNdjson(byte[] body, boolean gzip) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (gzip) {
      request.header("Content-Encoding", "gzip");
    }
    return http().send(request);
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  private List<String> regressions(String product) {
    Http.Response r = http().get("/api/v1/regressions?product=" + product);
    List<String> found = new ArrayList<>();
    r.json().forEach(g -> found.add(g.get("benchmark").asString() + " " + g.get("baselineVersion").asString()
        + "->" + g.get("version").asString()));
    found.sort(null);
    return found;
  }

  /** "version: members" of every summary of the product, whatever its status. */
  private List<String> summaries(String product) {
    Http.Response r = http().get("/api/v1/summaries?status=all&product=" + product);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> found = new ArrayList<>();
    r.json().forEach(s -> found.add(s.get("version").asString() + ": " + s.get("members").size()));
    found.sort(null);
    return found;
  }

  private long outboxMails(String product) {
    return count("SELECT count(*) FROM alert_outbox WHERE subject LIKE '%' || ? || '%'", product);
  }

  private long count(String sql, String param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }
}
