package org.perftrack.server.detection;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.formats.Json;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;

/** Reads regressions for the REST API and the ingest response; triages one. */
@Repository
class RegressionQueries {

  /** A regression with everything the list shows: the contract's fields plus kind, triage and hints. */
  record Item(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction, String baselineVersion, String version, double baselineValue, double value, double ratio,
      double pValue, String status, Instant detectedAt, String kind, String note, String triagedBy,
      String withdrawnReason, JsonNode hints, Instant updatedAt, Bisection bisection) {

    /** Issue 14: what the lab's bisection found (status pending|running|done|impossible); null when none ran. */
    record Bisection(String status, String lastGood, String firstBad, int rounds) {}

    RegressionView view() {
      return new RegressionView(id, product, machine, benchmark, metric, unit, direction, baselineVersion, version,
          baselineValue, value, ratio, pValue, status, detectedAt);
    }
  }

  private record Row(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction, String baselineVersion, String version, double baselineValue, double value, double ratio,
      double pValue, String status, OffsetDateTime detectedAt, String kind, String note, String triagedBy,
      String withdrawnReason, String hints, OffsetDateTime updatedAt, String bisectionStatus,
      String bisectionLastGood, String bisectionFirstBad, Integer bisectionRounds) {

    Item item() {
      return new Item(id, product, machine, benchmark, metric, unit, direction, baselineVersion, version,
          baselineValue, value, ratio, pValue, status, detectedAt.toInstant(), kind, note, triagedBy,
          withdrawnReason, Json.MAPPER.readTree(hints), updatedAt.toInstant(), bisectionStatus == null ? null
              : new Item.Bisection(bisectionStatus, bisectionLastGood, bisectionFirstBad, bisectionRounds));
    }
  }

  private final JdbcClient jdbc;

  RegressionQueries(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String SELECT = """
      SELECT rg.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction,
             bv.name AS baseline_version, v.name AS version, rg.baseline_value, rg.value, rg.ratio, rg.p_value,
             rg.status, rg.detected_at, rg.kind, rg.note, rg.triaged_by, rg.withdrawn_reason,
             rg.hints::text AS hints, rg.updated_at,
             bi.status AS bisection_status, bi.last_good AS bisection_last_good,
             bi.first_bad AS bisection_first_bad, bi.rounds AS bisection_rounds
      FROM regression rg
      LEFT JOIN bisection_regression br ON br.regression_id = rg.id
      LEFT JOIN bisection bi ON bi.id = br.bisection_id
      JOIN series s ON s.id = rg.series_id
      JOIN product p ON p.id = s.product_id
      JOIN machine m ON m.id = s.machine_id
      JOIN version bv ON bv.id = rg.baseline_version_id
      JOIN version v ON v.id = rg.version_id
      """;

  static final String BY_IDS = SELECT + "WHERE rg.id = ANY(?::bigint[]) ORDER BY rg.id";

  List<Item> byIds(List<Long> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return jdbc.sql(BY_IDS).param(ids.toArray(Long[]::new)).query(Row.class).list().stream().map(Row::item).toList();
  }

  static final String CREATED_BY = SELECT + "WHERE rg.created_by_run = ? AND rg.kind = 'regression' ORDER BY rg.id";

  List<Item> createdBy(UUID runId) {
    return jdbc.sql(CREATED_BY).param(runId).query(Row.class).list().stream().map(Row::item).toList();
  }

  static final String LIST = SELECT + """
      WHERE (CAST(:product AS text) IS NULL OR p.name = :product)
        AND (CAST(:machine AS text) IS NULL OR m.name = :machine)
        AND rg.status = ANY(CAST(:statuses AS text[]))
        AND rg.kind = :kind
      ORDER BY rg.detected_at DESC, rg.id DESC
      LIMIT :limit""";

  List<Item> list(String product, String machine, List<String> statuses, String kind, int limit) {
    return jdbc.sql(LIST).param("product", product).param("machine", machine)
        .param("statuses", statuses.toArray(String[]::new)).param("kind", kind).param("limit", limit)
        .query(Row.class).list().stream().map(Row::item).toList();
  }

  static final String TRIAGE = """
      UPDATE regression SET status = COALESCE(?, status), note = COALESCE(?, note), triaged_by = ?,
             updated_at = now()
      WHERE id = ?""";

  Optional<Item> triage(long id, String status, String note, String by) {
    int updated = jdbc.sql(TRIAGE).params(status, note, by, id).update();
    return updated == 0 ? Optional.empty() : byIds(List.of(id)).stream().findFirst();
  }
}
