package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/** The agent's first two versions uploaded through POST /api/v1/runs, on the embedded PostgreSQL. */
class AgentTwoVersionsApiTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  private JsonNode upload(String version) {
    ResultUpload[] results = AgentTwoVersions.load().stream().map(m -> new ResultUpload(m.benchmark(), m.metric(),
        m.unit(), m.direction(), Arrays.stream(m.samples().get(version)).boxed().toList()))
        .toArray(ResultUpload[]::new);
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, results)), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("regressions");
  }

  private static Map<String, JsonNode> byBenchmark(JsonNode regressions) {
    Map<String, JsonNode> out = new HashMap<>();
    regressions.forEach(r -> out.put(r.get("benchmark").asString(), r));
    return out;
  }

  @Test
  void answersTheSecondAgentVersionWithItsThreeSlowdownsOnly() {
    assertThat(upload(AgentTwoVersions.BASE).size()).isZero();

    JsonNode created = upload(AgentTwoVersions.HEAD);

    List<String> metrics = new ArrayList<>();
    created.forEach(r -> metrics.add(r.get("benchmark").asString() + " " + r.get("metric").asString()));
    assertThat(metrics).containsExactlyInAnyOrder("write-64b time-per-op", "read-64b time-per-op",
        "sigprocmask time-per-op");
    Map<String, JsonNode> regressions = byBenchmark(created);
    assertThat(regressions.get("write-64b").get("ratio").asDouble()).isCloseTo(24.4, within(0.5));
    assertThat(regressions.get("read-64b").get("ratio").asDouble()).isCloseTo(18.2, within(0.5));
    assertThat(regressions.get("sigprocmask").get("ratio").asDouble()).isCloseTo(55.1, within(0.5));
    assertThat(created).allSatisfy(r -> {
      assertThat(r.get("baselineVersion").asString()).isEqualTo(AgentTwoVersions.BASE);
      assertThat(r.get("version").asString()).isEqualTo(AgentTwoVersions.HEAD);
      assertThat(r.get("status").asString()).isEqualTo("open");
    });
  }

  @Test
  void showsSecondaryMetricsAsHintsOnTheSlowdownAndKeepsThemInTheCompareTable() {
    upload(AgentTwoVersions.BASE);
    upload(AgentTwoVersions.HEAD);

    Http.Response listed = http().get("/api/v1/regressions?product=" + product + "&machine=" + machine);
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    assertThat(listed.json().size()).isEqualTo(3);
    JsonNode read = byBenchmark(listed.json()).get("read-64b");
    Map<String, Double> hints = new HashMap<>();
    read.get("hints").forEach(h -> hints.put(h.get("metric").asString(), h.get("ratio").asDouble()));
    assertThat(hints).containsOnlyKeys("ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op");
    assertThat(hints.get("ctx-switches-per-op")).isGreaterThan(1000);
    Http.Response compare = http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base="
        + AgentTwoVersions.BASE + "&head=" + AgentTwoVersions.HEAD);
    assertThat(compare.status()).as(compare.body()).isEqualTo(200);
    List<String> rows = new ArrayList<>();
    compare.json().get("rows").forEach(r -> rows.add(r.get("benchmark").asString() + " " + r.get("metric").asString()));
    assertThat(rows).contains("read-64b ctx-switches-per-op", "read-64b sys-cpu-per-op");
  }
}
