package org.perftrack.server.alerts;

import java.util.List;
import org.perftrack.server.detection.RegressionView;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The other metrics of the regressed benchmark on the same machine (context switches, system time),
 * compared between the same two versions: the reader's first hint at why it got slower.
 */
@Repository
class SecondaryHints {

  /** A move smaller than this factor either way is not worth a line in a mail. */
  static final double WORTH_MENTIONING = 1.2;

  private final JdbcClient jdbc;

  SecondaryHints(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String MEDIANS = """
      SELECT s.metric, s.unit,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY r.median) FILTER (WHERE v.name = :base) AS baseline_value,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY r.median) FILTER (WHERE v.name = :head) AS value
        FROM series s
        JOIN product p ON p.id = s.product_id
        JOIN machine m ON m.id = s.machine_id
        JOIN result r ON r.series_id = s.id
        JOIN version v ON v.id = r.version_id
       WHERE p.name = :product AND m.name = :machine AND s.benchmark = :benchmark AND s.metric <> :metric
         AND v.name IN (:base, :head)
       GROUP BY s.metric, s.unit
       ORDER BY s.metric""";

  record Medians(String metric, String unit, Double baselineValue, Double value) {}

  List<AlertItem.Hint> find(RegressionView r) {
    return jdbc.sql(MEDIANS).param("base", r.baselineVersion()).param("head", r.version())
        .param("product", r.product()).param("machine", r.machine()).param("benchmark", r.benchmark())
        .param("metric", r.metric()).query(Medians.class).list().stream()
        .filter(m -> m.baselineValue() != null && m.value() != null && m.baselineValue() > 0)
        .map(m -> new AlertItem.Hint(m.metric(), m.unit(), m.baselineValue(), m.value(), m.value() / m.baselineValue()))
        .filter(h -> h.ratio() >= WORTH_MENTIONING || h.ratio() <= 1 / WORTH_MENTIONING)
        .toList();
  }
}
