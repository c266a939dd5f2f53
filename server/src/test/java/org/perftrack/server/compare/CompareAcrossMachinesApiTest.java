package org.perftrack.server.compare;

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
 * {@code GET /api/v1/compare} without {@code machine}: the compare page's rows over every machine that measured both
 * versions (machines that say what, the middle change, the range, other metrics "on 1 of 2 machines"), in OpenAPI.
 */
class CompareAcrossMachinesApiTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String slow = unique("xp-lab");
  private final String same = unique("w7-lab");

  @Test
  void withoutAMachineTheApiAnswersThePagesRowsAcrossMachines() {
    upload(run(product, "1.5.19-4", slow, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0), ctx(4, 4.1, 3.9)));
    upload(run(product, "1.5.24-2", slow, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1), ctx(9000, 9100, 8900)));
    upload(run(product, "1.5.19-4", same, result("write-64b", 20.0, 20.1, 19.9, 20.2, 20.0)));
    upload(run(product, "1.5.24-2", same, result("write-64b", 20.1, 20.0, 19.9, 20.2, 20.0)));

    Http.Response r = http().getWithToken("/api/v1/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2", TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().get("machines").toString()).contains(slow, same);
    JsonNode row = r.json().get("acrossMachines").get(0);
    assertThat(row.get("benchmark").asString()).isEqualTo("write-64b");
    assertThat(row.get("verdict").asString()).as("a regression when any machine's is one").isEqualTo("regression");
    assertThat(row.get("machines").asInt()).isEqualTo(2);
    assertThat(row.get("regressions").asInt()).isEqualTo(1);
    assertThat(row.get("lowestRatio").asDouble()).isBetween(0.98, 1.02);
    assertThat(row.get("highestRatio").asDouble()).isBetween(2.6, 2.7);
    JsonNode other = row.get("others").get(0);
    assertThat(other.get("metric").asString()).isEqualTo("ctx-switches-per-op");
    assertThat(other.get("partly").asString()).isEqualTo("on 1 of 2 machines");
    assertThat(r.json().get("rows")).isEmpty();

    assertThat(http().getWithToken("/api/v1/compare?product=" + product + "&machine=" + slow
        + "&base=1.5.19-4&head=1.5.24-2", TOKEN).json().get("rows")).as("on one machine as before").isNotEmpty();
    String api = http().getWithToken("/v3/api-docs", TOKEN).body();
    assertThat(api).contains("acrossMachines", "leave out for every machine that measured both versions");
  }

  private static RunUpload.ResultUpload ctx(double... samples) {
    java.util.List<Double> values = java.util.Arrays.stream(samples).boxed().toList();
    return new RunUpload.ResultUpload("write-64b", "ctx-switches-per-op", "count", RunUpload.LOWER_IS_BETTER, values);
  }

  private void upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }
}
