package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RegressionLinesTest {

  @Test
  void aTimeInMicrosecondsIsWrittenInAsciiForTheConsole() throws Exception {
    String line = RegressionLines.line("REGRESSION", new ObjectMapper().readTree("""
        {"benchmark": "tests/test_perf.py::test_json_dumps", "metric": "time", "unit": "s", "baselineVersion": "1.0",
         "version": "1.1", "baselineValue": 3.816e-06, "value": 7.2e-06, "ratio": 1.887, "machine": "ci"}"""), false);

    assertThat(line).isEqualTo("REGRESSION tests/test_perf.py::test_json_dumps time: 1.0 -> 1.1: 3.816 us -> 7.2 us"
        + " (x1.89) on ci");
    assertThat(line.chars()).allMatch(c -> c < 128);
  }
}
