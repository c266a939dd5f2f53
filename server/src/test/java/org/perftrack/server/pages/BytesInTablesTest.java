package org.perftrack.server.pages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.sessionSamples;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/**
 * Google Benchmark's bytes_per_second in B/s, 3.18e9 falling to 1.092e9: every page that shows such values as bare
 * numbers under their unit named once writes them in GB/s, as people read them, and names GB/s (a person reads the
 * page's text: no exponent anywhere).
 */
class BytesInTablesTest extends IntegrationTest {

  private static final String BENCHMARK = "BM_memcpy/65536";

  private final Random random = new Random(30);
  private final String product = unique("memlib");
  private final String machine = unique("xp");
  private String headRun;
  private long regression;

  @BeforeEach
  void aBandwidthFallsFromThreeGigabytesASecondToOne() {
    for (String v : List.of("1.5.12-1", "1.5.18-1", "1.5.19-1", "1.5.19-4")) {
      upload(run(product, v, machine, bandwidth(3.18e9)));
    }
    JsonNode answer = upload(run(product, "1.5.24-2", machine, bandwidth(1.092e9)));
    headRun = answer.get("id").asString();
    assertThat(answer.get("regressions").size()).as(answer.toString()).isEqualTo(1);
    regression = answer.get("regressions").get(0).get("id").asLong();
  }

  @Test
  void theComparePageWritesEachRowsValuesAndSpreadsInTheUnitItNames() {
    String text = page("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2&machine=" + machine);

    assertThat(text).contains(BENCHMARK + " bytes-per-second · GB/s, higher is better")
        .containsPattern(" 3\\.\\d+ 3\\.\\d+–3\\.\\d+ 1\\.\\d+ 1\\.\\d+–1\\.\\d+ ");
  }

  @Test
  void theRunPageWritesEachResultInTheUnitOfItsUnitColumn() {
    String text = page("/runs/" + headRun);

    assertThat(text).containsPattern("bytes-per-second GB/s 5 (1\\.\\d+ ){4}(1\\.\\d+ ){5}");
  }

  @Test
  void theSummaryPageWritesEachMembersStepInTheUnitItNames() {
    JsonNode r = http().get("/api/v1/regressions/" + regression).json();
    assertThat(r.get("summaryId").isNumber()).as(r.toString()).isTrue();

    String text = page("/summaries/" + r.get("summaryId").asLong());

    assertThat(text).containsPattern("3\\.\\d+ → 1\\.\\d+ " + BENCHMARK + " bytes-per-second · GB/s ");
  }

  @Test
  void theRegressionPageWritesTheSamplesSideBySideInTheUnitItNamesAndCountsAsCounts() {
    String text = page("/regressions/" + regression);

    assertThat(text).contains("Raw samples of every run of each version on this machine, sorted, in GB/s.")
        .containsPattern(" 1 3\\.\\d+ 1\\.\\d+ ").containsPattern(" n 5 5 min 3\\.\\d+ 1\\.\\d+ median 3\\.\\d+ ");
  }

  @Test
  void theSeriesPageWritesItsValuesInTheUnitItsTableNames() {
    String text = page("/products/" + product + "/series?benchmark=" + BENCHMARK + "&metric=bytes-per-second");

    assertThat(text).as("the heading names the unit the table and chart write")
        .contains("BM_memcpy/65536 bytes-per-second GB/s, higher is better · 1 machine")
        .containsPattern("5 versions, [^,]+, in GB/s ")
        .containsPattern("1\\.5\\.24-2 1\\.\\d+ 1\\.\\d+–1\\.\\d+ · n=5 ");
  }

  @Test
  void theProductPageWritesEachRowsNewestValuesInTheUnitItNamesAndAFoldedMetricsWithItsUnit() {
    upload(run(product, "1.5.25-1", machine, bandwidth(1.092e9), new ResultUpload(BENCHMARK, "counter:peak-bytes", "B",
        RunUpload.LOWER_IS_BETTER, List.of(123_400_000.0))));

    String text = page("/products/" + product);

    assertThat(text).contains(" bytes-per-second · GB/s, higher is better", machine + ": 123.4 MB")
        .containsPattern(" ×[\\d.]+ – ×[\\d.]+ 1\\.\\d+ ");
  }

  @Test
  void theOverheadPageWritesEachRowsValuesInTheUnitItNames() {
    String nativeOs = unique("linux");
    String batch = UUID.randomUUID().toString();
    upload(batched(run(nativeOs, "6.1.0", machine, bandwidth(3.18e9)), batch));
    upload(batched(run(product, "1.5.24-2", machine, bandwidth(1.092e9)), batch));

    String text = page("/compare?base=" + nativeOs + "@6.1.0&head=" + product + "@1.5.24-2&machine=" + machine);

    assertThat(text).contains(BENCHMARK + " bytes-per-second · GB/s, higher is better")
        .containsPattern(" 3\\.\\d+ 1\\.\\d+ ");
  }

  private ResultUpload bandwidth(double level) {
    return new ResultUpload(BENCHMARK, "bytes-per-second", "B/s", RunUpload.HIGHER_IS_BETTER,
        sessionSamples(random, level));
  }

  private String page(String path) {
    Http.Response r = http().page(path);
    assertThat(r.status()).as(path).isEqualTo(200);
    String text = r.text();
    assertThat(text).as(path).doesNotContainPattern("\\d\\.\\d+e[+-]\\d").contains("GB/s");
    return text;
  }

  private static RunUpload batched(RunUpload r, String batch) {
    return new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }

  private JsonNode upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }
}
