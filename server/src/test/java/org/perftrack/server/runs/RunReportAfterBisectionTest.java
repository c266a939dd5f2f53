package org.perftrack.server.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
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
 * Once the lab has measured the versions between a step's two (as a bisection uploads them) and the step sits at
 * the first bad one, each row of a run's report names one baseline, and its baseline value is that version's:
 * the lab's run at the first bad version reports the step against the last good one, and the run that found the
 * step compares its own value, not the first bad version's, with the baseline it names.
 */
class RunReportAfterBisectionTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp-lab");

  @Test
  void eachRowNamesTheOneBaselineItsValuesCompare() {
    upload(run(product, "1.5.19-4", machine, write(18.0), fork()));
    String found = upload(run(product, "1.5.24-2", machine, write(48.0), fork()));
    assertThat(row(found, "write-64b").get("baselineVersion").asString()).isEqualTo("1.5.19-4");

    // what a bisection uploads: the versions between, the step at 1.5.22-1
    upload(run(product, "1.5.21-1", machine, write(18.2), fork()));
    String firstBad = upload(run(product, "1.5.22-1", machine, write(46.0), fork()));
    upload(run(product, "1.5.23-1", machine, write(47.0), fork()));

    JsonNode lab = row(firstBad, "write-64b");
    assertThat(lab.get("verdict").asString()).as("the step is at the lab run's version: " + lab).isEqualTo("regression");
    assertThat(lab.get("baselineVersion").asString()).isEqualTo("1.5.21-1");
    assertThat(lab.get("baselineValue").asDouble()).isCloseTo(18.2, within(0.1));
    assertThat(lab.get("value").asDouble()).isCloseTo(46.0, within(0.1));

    JsonNode original = row(found, "write-64b");
    assertThat(original.get("value").asDouble()).as("this run's own value: " + original).isCloseTo(48.0, within(0.1));
    double base = switch (original.get("baselineVersion").asString()) {
      case "1.5.21-1" -> 18.2;
      case "1.5.23-1" -> 47.0;
      default -> Double.NaN;
    };
    assertThat(original.get("baselineValue").asDouble()).as("the value of the baseline it names: " + original)
        .isCloseTo(base, within(0.1));
    assertThat(original.get("ratio").asDouble()).isCloseTo(48.0 / base, within(0.01));
    assertThat(row(found, "fork").get("baselineVersion").asString()).isEqualTo("1.5.23-1");
  }

  private static RunUpload.ResultUpload write(double level) {
    return result("write-64b", level, level * 1.002, level * 0.998, level * 1.001, level * 0.999);
  }

  private static RunUpload.ResultUpload fork() {
    return result("fork", 75.0, 75.2, 74.9, 75.1, 75.0);
  }

  private JsonNode row(String run, String benchmark) {
    Http.Response r = http().getWithToken("/api/v1/runs/" + run + "/report?format=json", TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("rows").valueStream().filter(x -> x.get("benchmark").asString().equals(benchmark)).findFirst()
        .orElseThrow();
  }

  private String upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }
}
