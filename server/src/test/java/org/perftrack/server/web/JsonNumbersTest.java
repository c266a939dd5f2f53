package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.json.JsonMapper;

class JsonNumbersTest extends IntegrationTest {

  @Autowired
  JsonMapper json;

  @Test
  void aCompareRowWithoutABaseValueSaysNullNotTheStringNaN() {
    var row = new ComparedMetric("write-64b", "time-per-op", "us", Direction.LOWER_IS_BETTER, Double.NaN, 48.0,
        Double.POSITIVE_INFINITY, null, Verdict.INSUFFICIENT_DATA, false, null);

    String text = json.writeValueAsString(row);

    assertThat(text).contains("\"baseValue\":null", "\"headValue\":48.0", "\"ratio\":null").doesNotContain("NaN");
  }

  /** A count that was 0 at the base: its ratio is no number; the compare API says null, its CSV nothing. */
  @Test
  void theCompareApiAnswersNullForARatioToZero() {
    String product = Fixtures.unique("nan");
    String machine = Fixtures.unique("m");
    for (String[] v : new String[][] {{"1.0", "0"}, {"2.0", "3"}}) {
      double level = Double.parseDouble(v[1]);
      var result = new RunUpload.ResultUpload("open-files", "leaked-handles", "1", RunUpload.LOWER_IS_BETTER,
          java.util.List.of(level, level, level));
      Http.Response r = http().postJson("/api/v1/runs",
          Fixtures.json(Fixtures.run(product, v[0], machine, result)), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    Http.Response compare = http().get("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=1.0&head=2.0");

    Http.Response csv = http().get("/compare.csv?product=" + product + "&machine=" + machine + "&base=1.0&head=2.0");

    assertThat(compare.status()).as(compare.body()).isEqualTo(200);
    assertThat(compare.body()).contains("\"benchmark\":\"open-files\"", "\"baseValue\":0.0", "\"ratio\":null")
        .doesNotContain("NaN", "Infinity");
    assertThat(csv.status()).as(csv.body()).isEqualTo(200);
    assertThat(csv.body()).as("the CSV leaves the ratio empty").contains("open-files").doesNotContain("NaN", "Infinity");
  }
}
