package org.perftrack.server.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/runs/{id}/report}: seed 003 (write() of 64 bytes 18 → 48 µs between 1.5.19-4 and 1.5.24-2)
 * as a pull request comment and a JUnit report; the regression first and failed, the unchanged benchmark after it.
 */
class RunReportTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp-lab");

  @Test
  void aRunsReportPutsItsRegressionFirstAsMarkdownJunitAndJson() {
    upload(run(product, "1.5.19-4", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0),
        result("fork", 75.0, 75.2, 74.9, 75.1, 75.0)));
    String id = upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1),
        result("fork", 75.1, 75.0, 74.8, 75.2, 75.0)));

    String markdown = get("/api/v1/runs/" + id + "/report?format=markdown", "text/markdown");
    String junit = get("/api/v1/runs/" + id + "/report?format=junit", "application/xml");
    JsonNode rows = http().getWithToken("/api/v1/runs/" + id + "/report?format=json", TOKEN).json().get("rows");

    assertThat(markdown).startsWith("### perftrack: 1 regression\nRun of `" + product + "` `1.5.24-2` on `" + machine
        + "`. [details](" + PUBLIC_URL + "/runs/" + id + ")");
    assertThat(markdown).contains("| `write-64b` | `time-per-op` | `1.5.19-4`: 18.03 us | 48.1 us | ×2.67 (slower) |");
    assertThat(markdown).contains("<details><summary>1 other metric</summary>", "| `fork` | `time-per-op` | `1.5.19-4`: ");
    assertThat(junit).contains("<testsuites name=\"perftrack\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">",
        "<testcase classname=\"write-64b\" name=\"time-per-op\" time=\"0\">\n      <failure type=\"regression\"",
        "<testcase classname=\"fork\" name=\"time-per-op\" time=\"0\">\n      <system-out>unchanged");
    assertThat(rows.findValuesAsString("verdict")).containsExactly("regression", "unchanged");
  }

  @Test
  void aBandwidthThatFellSaysHowManyTimesLessOnceAndWhichWayThatIs() {
    java.util.Random random = new java.util.Random(30);
    java.util.function.DoubleFunction<RunUpload.ResultUpload> bandwidth = level -> new RunUpload.ResultUpload(
        "BM_memcpy/65536", "bytes-per-second", "B/s", RunUpload.HIGHER_IS_BETTER,
        org.perftrack.server.support.Fixtures.sessionSamples(random, level));
    for (String v : java.util.List.of("1.5.12-1", "1.5.18-1", "1.5.19-1", "1.5.19-4")) {
      upload(run(product, v, machine, bandwidth.apply(3.18e9)));
    }
    String id = upload(run(product, "1.5.24-2", machine, bandwidth.apply(1.092e9)));

    String markdown = get("/api/v1/runs/" + id + "/report?format=markdown", "text/markdown");
    String junit = get("/api/v1/runs/" + id + "/report?format=junit", "application/xml");

    assertThat(markdown).containsPattern(
        "\\| `BM_memcpy/65536` \\| `bytes-per-second` \\| `1\\.5\\.19-4`: 3\\.\\d+ GB/s \\| 1\\.\\d+ GB/s \\| "
            + "[23]\\.\\d+× less \\(worse\\) \\|");
    assertThat(junit).containsPattern("3\\.\\d+ GB/s in 1\\.5\\.19-4 → 1\\.\\d+ GB/s: [23]\\.\\d+× less \\(worse\\)");
  }

  @Test
  void aMetricThatMovedWithoutAStepIsInconclusiveAsCompareSaysNotUnchanged() {
    upload(run(product, "2.0", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0),
        result("fork", 70.0, 110.0, 60.0, 120.0, 90.0)));
    String id = upload(run(product, "2.1", machine, result("write-64b", 18.1, 18.0, 17.9, 18.2, 18.0),
        result("fork", 105.0, 165.0, 90.0, 180.0, 135.0)));

    JsonNode compared = http().getWithToken("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=2.0&head=2.1", TOKEN).json().get("rows");
    JsonNode rows = http().getWithToken("/api/v1/runs/" + id + "/report?format=json", TOKEN).json().get("rows");
    String markdown = get("/api/v1/runs/" + id + "/report?format=markdown", "text/markdown");
    String junit = get("/api/v1/runs/" + id + "/report?format=junit", "application/xml");

    assertThat(verdict(compared, "fork")).isEqualTo("inconclusive");
    assertThat(verdict(rows, "fork")).as("the run's report says what compare says of the same pair")
        .isEqualTo("inconclusive");
    assertThat(verdict(rows, "write-64b")).isEqualTo("unchanged");
    assertThat(markdown).startsWith("### perftrack: 1 inconclusive change\n").doesNotContain("perftrack: no change")
        .containsPattern("\\| `fork` \\| `time-per-op` \\| `2\\.0`: [0-9.]+ us \\| [0-9.]+ us \\| ×1[.0-9]* \\([^)]*slower\\)"
            + " \\| 0\\.\\d+ \\| \\*\\*inconclusive\\*\\* \\|");
    assertThat(junit).contains("failures=\"0\"", "<system-out>inconclusive: ");
  }

  @Test
  void aChangeNearOneReadsAsAPercentageInTheReportJunitAndCompareNotAsOneTimesLess() {
    upload(run(product, "3.0", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0),
        result("fork", 75.0, 75.2, 74.9, 75.1, 75.0)));
    String id = upload(run(product, "3.1", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1),
        result("fork", 74.7, 74.9, 74.6, 74.8, 74.7)));

    String markdown = get("/api/v1/runs/" + id + "/report?format=markdown", "text/markdown");
    String junit = get("/api/v1/runs/" + id + "/report?format=junit", "application/xml");
    String compare = http().page("/compare?product=" + product + "&machine=" + machine + "&base=3.0&head=3.1").text();

    assertThat(markdown).contains(" us | 0.4% faster |").doesNotContain("× less");
    assertThat(junit).contains(" us: 0.4% faster").doesNotContain("× less");
    assertThat(compare).contains("-0.4%", "0.4% faster").doesNotContain("1× less");
  }

  private static String verdict(JsonNode rows, String benchmark) {
    return rows.valueStream().filter(r -> r.get("benchmark").asString().equals(benchmark)).findFirst().orElseThrow()
        .get("verdict").asString();
  }

  @Test
  void aRunWithoutChangesIsOneLineAndItsFirstVersionIsSkippedInJunit() {
    String first = upload(run(product, "1.0", machine, result("fork", 75.0, 75.2, 74.9, 75.1, 75.0)));

    assertThat(get("/api/v1/runs/" + first + "/report", "text/markdown")).isEqualTo("perftrack: no change in `"
        + product + "` `1.0` on `" + machine + "` (1 metric). [details](" + PUBLIC_URL + "/runs/" + first + ")\n");
    assertThat(get("/api/v1/runs/" + first + "/report?format=junit", "application/xml"))
        .contains("skipped=\"1\"", "<skipped message=\"no history to compare with\"/>");
  }

  @Test
  void aBadFormatOrAnUnknownRunIsAProblemNamingIt() {
    Http.Response format = http().getWithToken("/api/v1/runs/" + java.util.UUID.randomUUID() + "/report?format=pdf",
        TOKEN);
    Http.Response unknown = http().getWithToken("/api/v1/runs/" + java.util.UUID.randomUUID() + "/report", TOKEN);

    assertThat(format.status()).isEqualTo(400);
    assertThat(format.body()).contains("format", "markdown, junit or json");
    assertThat(unknown.status()).isEqualTo(404);
  }

  private String get(String path, String contentType) {
    Http.Response r = http().getWithToken(path, TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.contentType()).startsWith(contentType);
    return r.body();
  }

  private String upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }
}
