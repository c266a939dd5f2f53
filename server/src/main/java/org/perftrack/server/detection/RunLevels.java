package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A stored run's metrics as detection sees them: the level of the run's version in each series, and the level of
 * the series' version before it (what a step at this version would be measured against).
 */
@Service
public class RunLevels {

  /** One metric of the run; the baseline fields are null when the series has no earlier version. */
  public record Level(String benchmark, String metric, String unit, Direction direction, String baselineVersion,
      Double baselineValue, Double value) {}

  private final JdbcClient jdbc;

  RunLevels(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String LEVELS = """
      SELECT s.benchmark, s.metric, s.unit, s.direction, pv.name AS baseline_version, prev.level AS baseline_value,
             cur.level AS value
      FROM result r JOIN series s ON s.id = r.series_id
      LEFT JOIN detection_point cur ON cur.series_id = r.series_id AND cur.version_id = r.version_id
      LEFT JOIN LATERAL (SELECT p.level, p.version_id FROM detection_point p
                         WHERE p.series_id = r.series_id AND p.sort_key < cur.sort_key
                         ORDER BY p.sort_key DESC LIMIT 1) prev ON true
      LEFT JOIN version pv ON pv.id = prev.version_id
      WHERE r.run_id = ?""";

  public List<Level> of(UUID runId) {
    return jdbc.sql(LEVELS).param(runId).query((ResultSet x, int i) -> new Level(x.getString("benchmark"),
        x.getString("metric"), x.getString("unit"), Direction.of(x.getString("direction")),
        x.getString("baseline_version"), number(x, "baseline_value"), number(x, "value"))).list();
  }

  private static Double number(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? null : v;
  }
}
