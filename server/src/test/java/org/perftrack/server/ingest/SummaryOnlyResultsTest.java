package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/** Results that carry a tool's statistics instead of raw samples, through HTTP, PostgreSQL and detection. */
class SummaryOnlyResultsTest extends IntegrationTest {

  private static ResultUpload summary(double mean, double stddev) {
    return new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, null, 20, mean, stddev,
        mean - 2 * stddev, mean, mean + 2 * stddev);
  }

  @Test
  void aStepOfSeedThreesSizeInSummariesIsStillFlagged() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (String version : new String[] {"1.5.18-1", "1.5.19-4"}) {
      assertThat(http().postJson("/api/v1/runs", json(run(product, version, machine, summary(18.0, 0.3))), TOKEN)
          .status()).isEqualTo(201);
    }

    Http.Response slow = http().postJson("/api/v1/runs", json(run(product, "1.5.24-2", machine, summary(48.0, 0.4))),
        TOKEN);

    assertThat(slow.status()).as(slow.body()).isEqualTo(201);
    JsonNode regressions = slow.json().get("regressions");
    assertThat(regressions).hasSize(1);
    assertThat(regressions.get(0).get("version").asString()).isEqualTo("1.5.24-2");
    assertThat(regressions.get(0).get("ratio").doubleValue()).isBetween(2.5, 2.8);
  }

  @Test
  void aSummaryInMillisecondsIsConvertedToTheSeriesUnit() {
    String product = unique("cygwin");
    String machine = unique("xp");
    http().postJson("/api/v1/runs", json(run(product, "1.0", machine, summary(18.0, 0.3))), TOKEN);
    ResultUpload ms = new ResultUpload("write-64b", "time-per-op", "ms", RunUpload.LOWER_IS_BETTER, null, 20, 0.018,
        0.0003, null, null, null);

    Http.Response r = http().postJson("/api/v1/runs", json(run(product, "1.1", machine, ms)), TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    JsonNode points = http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op").json().get("points");
    assertThat(points.get(1).get("mean").doubleValue()).isCloseTo(18.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(points.get(1).get("stddev").doubleValue()).isCloseTo(0.3, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(points.get(1).get("summaryOnly").asBoolean()).isTrue();
  }
}
