package org.perftrack.server.detection;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Detection's entry point for the web pages (dashboards): the same queries, triage and comparison
 * the REST API uses, so that a page never judges differently from {@code /api/v1/regressions} and
 * {@code /api/v1/compare}. Exposes public records instead of the package's own types.
 */
@org.springframework.stereotype.Service
public class DetectionPages {

  /** A regression (or improvement) with its triage and the other metrics' hints. */
  public record Regression(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction, String baselineVersion, String version, double baselineValue, double value, double ratio,
      double pValue, String status, Instant detectedAt, String kind, String note, String triagedBy,
      List<Hint> hints) {}

  /** One metric of a version comparison on one machine (GET /api/v1/compare's row). */
  public record ComparedMetric(String benchmark, String metric, String unit, String direction, double baseValue,
      double headValue, double ratio, Double pValue, String verdict, boolean paired) {}

  private final RegressionQueries queries;
  private final CompareService compare;

  DetectionPages(RegressionQueries queries, CompareService compare) {
    this.queries = queries;
    this.compare = compare;
  }

  /** Regressions, newest first, as GET /api/v1/regressions lists them. */
  public List<Regression> regressions(String product, String machine, List<String> statuses, int limit) {
    return queries.list(product, machine, statuses, "regression", limit).stream().map(DetectionPages::regression)
        .toList();
  }

  public Optional<Regression> regression(long id) {
    return queries.byIds(List.of(id)).stream().findFirst().map(DetectionPages::regression);
  }

  /** As PATCH /api/v1/regressions/{id}: {@code status} one of open, acknowledged, invalid, fixed, wontfix. */
  public Optional<Regression> triage(long id, String status, String note, String by) {
    if (!RegressionsController.TRIAGE.contains(status)) {
      throw new IllegalArgumentException("status must be one of " + RegressionsController.TRIAGE);
    }
    return queries.triage(id, status, note, by).map(DetectionPages::regression);
  }

  /** As GET /api/v1/compare (empty when the machine measured only one of the versions). */
  public List<ComparedMetric> compare(String product, String machine, String base, String head) {
    return compare.compare(product, machine, base, head).stream()
        .map(r -> new ComparedMetric(r.benchmark(), r.metric(), r.unit(), r.direction(), r.baseValue(),
            r.headValue(), r.ratio(), r.pValue(), r.verdict(), r.paired()))
        .toList();
  }

  private static Regression regression(RegressionQueries.Item i) {
    return new Regression(i.id(), i.product(), i.machine(), i.benchmark(), i.metric(), i.unit(), i.direction(),
        i.baselineVersion(), i.version(), i.baselineValue(), i.value(), i.ratio(), i.pValue(), i.status(),
        i.detectedAt(), i.kind(), i.note(), i.triagedBy(), hints(i.hints()));
  }

  private static List<Hint> hints(JsonNode hints) {
    if (hints == null || !hints.isArray()) {
      return List.of();
    }
    return hints.valueStream().map(h -> new Hint(h.path("metric").asString(), h.path("unit").asString(""),
        h.path("baselineValue").asDouble(Double.NaN), h.path("value").asDouble(Double.NaN),
        h.hasNonNull("ratio") ? h.get("ratio").asDouble() : null)).toList();
  }
}
