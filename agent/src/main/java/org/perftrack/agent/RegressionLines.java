package org.perftrack.agent;

import com.fasterxml.jackson.databind.JsonNode;
import org.perftrack.agent.text.Numbers;

/**
 * A regression of the server's answer as one console line that names all a reader needs to tell two apart:
 * {@code REGRESSION pipe-bw/65536 bandwidth: 1.5.19-4 -> 1.5.24-2: 3.18 GB/s -> 1.092 GB/s (2.91x less) on xp-lab-01}.
 */
final class RegressionLines {

  private RegressionLines() {}

  /** {@code label}: REGRESSION, or CONFIRMED for one an earlier upload reported unconfirmed. */
  static String line(String label, JsonNode r) {
    String unit = text(r, "unit");
    String machine = text(r, "machine");
    return label + " " + text(r, "benchmark") + " " + text(r, "metric") + ": " + text(r, "baselineVersion")
        + " -> " + text(r, "version") + ": " + quantity(r, "baselineValue", unit) + " -> " + quantity(r, "value", unit)
        + " (" + (isNumber(r, "ratio") ? Numbers.ratio(r.get("ratio").asDouble()) : "x?") + ")"
        + (machine.equals("?") ? "" : " on " + machine);
  }

  private static String quantity(JsonNode node, String field, String unit) {
    return isNumber(node, field) ? Numbers.quantity(node.get(field).asDouble(), unit.equals("?") ? "" : unit) : "?";
  }

  private static boolean isNumber(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isNumber();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? "?" : value.asText();
  }
}
