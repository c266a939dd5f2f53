package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perftrack.server.db.Json;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a CI job sees when it sends its Google Benchmark file with {@code ?format=gbench} for every build:
 * nothing for the clean builds, and the regression for the build with an injected slowdown — the answer
 * docs/from-ci.md turns into exit code 3.
 */
class CiFailsOnRegressionTest extends IntegrationTest {

  private static final String SLOWED = "BM_StringCopy/64";

  private final Random random = new Random(7);
  private final String product = unique("mylib");
  private final String machine = unique("ci-ubuntu");

  @Test
  void buildWithAnInjectedSlowdownIsAnsweredWithItsRegression() {
    for (String version : List.of("1.0.0", "1.0.1", "1.0.2", "1.0.3")) {
      assertThat(upload(version, build(1.0)).get("regressions")).as(version).isEmpty();
    }

    JsonNode regressions = upload("1.1.0", build(3.0)).get("regressions");

    assertThat(regressions).isNotEmpty();
    assertThat(regressions.findValuesAsString("benchmark")).containsOnly(SLOWED);
    JsonNode realTime = regressions.valueStream()
        .filter(r -> r.get("metric").asString().equals("real-time")).findFirst().orElseThrow();
    assertThat(realTime.get("unit").asString()).isEqualTo("ns");
    assertThat(realTime.get("baselineVersion").asString()).isEqualTo("1.0.3");
    assertThat(realTime.get("version").asString()).isEqualTo("1.1.0");
    assertThat(realTime.get("ratio").asDouble()).isCloseTo(3.0, within(0.3));
  }

  private JsonNode upload(String version, byte[] file) {
    Http.Response r = http().postBytes("/api/v1/runs?format=gbench&product=" + product + "&version=" + version
        + "&machine=" + machine, file, "application/json", TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  /**
   * The real Google Benchmark file as another build would write it: every time moved by a little session
   * noise, and {@value #SLOWED}'s times multiplied by {@code slowdown}.
   */
  private byte[] build(double slowdown) {
    JsonNode file = GoldenFiles.tree("gbench/repetitions.json");
    double session = 1 + 0.005 * random.nextGaussian();
    for (JsonNode entry : file.get("benchmarks")) {
      double factor = session * (entry.get("run_name").asString().equals(SLOWED) ? slowdown : 1.0);
      for (String field : List.of("real_time", "cpu_time")) {
        double noise = 1 + 0.005 * random.nextGaussian();
        ((ObjectNode) entry).put(field, entry.get(field).doubleValue() * factor * noise);
      }
    }
    return Json.MAPPER.writeValueAsBytes(file);
  }
}
