package org.perftrack.server.e2e;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.perftrack.server.db.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Google Benchmark files as a CI job's builds write them: the real golden file (BM_StringCopy/64 and /4096, ten
 * repetitions) with a little session noise, each benchmark slowed by its own factor.
 */
final class GbenchBuilds {

  static final String SMALL = "BM_StringCopy/64";
  static final String LARGE = "BM_StringCopy/4096";

  private final Random random;

  GbenchBuilds(long seed) {
    random = new Random(seed);
  }

  byte[] build(double small, double large) {
    JsonNode file = Json.MAPPER.readTree(Path.of("../formats/src/test/resources/golden/gbench/repetitions.json")
        .toFile());
    double session = 1 + 0.005 * random.nextGaussian();
    for (JsonNode entry : file.get("benchmarks")) {
      double factor = session * (entry.get("run_name").asString().equals(SMALL) ? small : large);
      for (String field : List.of("real_time", "cpu_time")) {
        double noise = 1 + 0.005 * random.nextGaussian();
        ((ObjectNode) entry).put(field, entry.get(field).doubleValue() * factor * noise);
      }
    }
    return Json.MAPPER.writeValueAsBytes(file);
  }
}
