package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.support.IntegrationTest;
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
}
