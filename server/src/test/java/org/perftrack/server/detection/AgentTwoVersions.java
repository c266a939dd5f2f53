package org.perftrack.server.detection;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.db.Json;
import tools.jackson.databind.JsonNode;

/**
 * Real agent output (one run each of 1.5.19-4 and 1.5.24-2 on a loaded machine, five samples, one
 * outlier sample or two per version), as the server's /api/v1/series returned it, one series a line.
 */
final class AgentTwoVersions {
  static final String BASE = "1.5.19-4";
  static final String HEAD = "1.5.24-2";

  record Measured(String benchmark, String metric, String unit, String direction, Map<String, double[]> samples) {
    Direction parsedDirection() {
      return Direction.of(direction);
    }
  }

  private AgentTwoVersions() {
  }

  static List<Measured> load() {
    try (InputStream in = AgentTwoVersions.class.getResourceAsStream("/detection/agent-two-versions.jsonl")) {
      List<Measured> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          out.add(parse(Json.MAPPER.readTree(line)));
        }
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("cannot read agent-two-versions.jsonl", e);
    }
  }

  private static Measured parse(JsonNode series) {
    Map<String, double[]> samples = new LinkedHashMap<>();
    for (JsonNode point : series.get("points")) {
      JsonNode values = point.get("samples");
      double[] v = new double[values.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = values.get(i).asDouble();
      }
      samples.put(point.get("version").asString(), v);
    }
    return new Measured(series.get("benchmark").asString(), series.get("metric").asString(),
        series.get("unit").asString(), series.get("direction").asString(), samples);
  }
}
