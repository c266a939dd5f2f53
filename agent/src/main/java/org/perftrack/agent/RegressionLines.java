package org.perftrack.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;
import org.perftrack.wire.Quantities;

/**
 * A regression of the server's answer as one console line that names all a reader needs to tell two apart:
 * {@code REGRESSION pipe-bw/65536 bandwidth: 1.5.19-4 -> 1.5.24-2: 3.18 GB/s -> 1.092 GB/s (2.91x less) on xp-lab-01};
 * when the lines of one upload span several products, each version pair is preceded by its product
 * ({@code cygwin 1.5.19-4 -> 1.5.24-2}). A step the server could place only within a run of versions says so
 * after its pair: {@code 1.5.20-1 -> 1.5.21-1 (starts between 1.5.20-1 and 1.5.22-1)}, the pair being the likeliest.
 */
final class RegressionLines {

  private RegressionLines() {}

  /**
   * @param label REGRESSION, CONFIRMED (one an earlier upload reported unconfirmed) or WAITING
   * @param withProduct the product before the versions: the upload's lines span several products
   */
  static String line(String label, JsonNode r, boolean withProduct) {
    String unit = text(r, "unit");
    String machine = text(r, "machine");
    String product = text(r, "product");
    return label + " " + text(r, "benchmark") + " " + text(r, "metric") + ": "
        + (withProduct && !product.equals("?") ? product + " " : "") + text(r, "baselineVersion")
        + " -> " + text(r, "version") + suspects(r) + ": " + quantity(r, "baselineValue", unit) + " -> " + quantity(r, "value", unit)
        + " (" + ratio(r) + ")"
        + (machine.equals("?") ? "" : " on " + machine);
  }

  /** " (starts between A and B)" when the server reported a range of versions, else empty. */
  static String suspects(JsonNode r) {
    String first = text(r, "firstSuspect");
    String last = text(r, "lastSuspect");
    return first.equals("?") || last.equals("?") || first.equals(last) ? ""
        : " (starts between " + first + " and " + last + ")";
  }

  /** "; why: http://server/regressions/12#profile" when the lab profiled the regression or will, else empty. */
  static String profile(JsonNode r) {
    JsonNode url = r.get(org.perftrack.agent.upload.Stored.PROFILE_URL);
    return url == null || url.isNull() ? "" : "; why: " + url.asText();
  }

  /** Whether these lines name more than one product: then each line names its own. */
  static boolean severalProducts(Iterable<JsonNode> lines) {
    Set<String> products = new HashSet<>();
    for (JsonNode r : lines) {
      products.add(text(r, "product"));
    }
    products.remove("?");
    return products.size() > 1;
  }

  /** "3.816 us": the console is ASCII, as for the ratio. */
  private static String quantity(JsonNode node, String field, String unit) {
    return isNumber(node, field)
        ? Quantities.ascii(Quantities.quantity(node.get(field).asDouble(), unit.equals("?") ? "" : unit)) : "?";
  }

  /** "x2.67", "2.91x less": the console is ASCII, a Windows console shows the multiplication sign as another. */
  private static String ratio(JsonNode r) {
    String ratio = isNumber(r, "ratio") ? Quantities.ratio(r.get("ratio").asDouble(), "x") : "?";
    return ratio.equals("?") ? "x?" : ratio;
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
