package org.perftrack.formats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * Recognises which tool wrote a JSON tree by its shape, so that a file sent with the wrong format gets
 * "this looks like a Google Benchmark file, not hyperfine" rather than a list of missing fields.
 */
final class FormatSniffer {

  private record Shape(String label, Predicate<JsonNode> test) {}

  private static final Map<String, Shape> SHAPES = new LinkedHashMap<>();

  static {
    SHAPES.put("gbench", new Shape("Google Benchmark",
        root -> root.isObject() && root.path("context").isObject() && root.path("benchmarks").isArray()));
    SHAPES.put("jmh", new Shape("JMH",
        root -> root.isArray() && (root.isEmpty() || first(root).has("primaryMetric") || first(root).has("jmhVersion"))));
    SHAPES.put("pytest-benchmark", new Shape("pytest-benchmark",
        root -> root.isObject() && root.path("benchmarks").isArray() && !root.has("context")
            && (root.has("machine_info") || root.has("commit_info") || first(root.path("benchmarks")).has("stats"))));
    SHAPES.put("hyperfine", new Shape("hyperfine",
        root -> root.isObject() && root.path("results").isArray() && !root.has("product")
            && (root.path("results").isEmpty() || first(root.path("results")).has("command"))));
    SHAPES.put("perftrack", new Shape("perftrack",
        root -> root.isObject() && (root.has("product") || first(root.path("results")).has("samples"))));
  }

  private FormatSniffer() {}

  static boolean matches(String format, JsonNode root) {
    return SHAPES.get(format).test().test(root);
  }

  static Optional<String> guess(JsonNode root) {
    return SHAPES.entrySet().stream().filter(e -> e.getValue().test().test(root)).map(Map.Entry::getKey).findFirst();
  }

  static String label(String format) {
    return SHAPES.get(format).label();
  }

  /** The error for a file that is not of the expected format, naming the format it looks like if any. */
  static FormatException wrongFormat(String source, String expected, JsonNode root, String expectedShape) {
    Optional<String> other = guess(root).filter(g -> !g.equals(expected));
    if (other.isPresent()) {
      return new FormatException(source + ": this looks like a " + label(other.get()) + " file, not "
          + label(expected) + " (use format '" + other.get() + "')");
    }
    return new FormatException(source + ": not a " + label(expected) + " file: expected " + expectedShape);
  }

  private static JsonNode first(JsonNode array) {
    return array.isArray() && !array.isEmpty() ? array.get(0) : MissingNode.getInstance();
  }
}
