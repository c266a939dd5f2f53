package org.perftrack.server.detection;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Purging a deleted version for good: what detection kept of it (its steps with their history, its points, its
 * judging marks). The runs are gone by then, so its points and marks normally are too.
 */
@Service
public class Forgetting {

  private final JdbcClient jdbc;

  Forgetting(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String STEPS_OF_VERSION = """
      SELECT id FROM regression WHERE version_id = ? OR baseline_version_id = ? ORDER BY id""";

  /** The steps that start or end at this version (the rows that refer to them go first). */
  public List<Long> stepsOf(long versionId) {
    return jdbc.sql(STEPS_OF_VERSION).params(versionId, versionId).query(Long.class).list();
  }

  static final String STEPS_OF_SERIES = "SELECT id FROM regression WHERE series_id = ANY(?::bigint[]) ORDER BY id";

  /** The steps of these series (the rows that refer to them go first). */
  public List<Long> stepsOfSeries(List<Long> seriesIds) {
    return jdbc.sql(STEPS_OF_SERIES).param(seriesIds.toArray(Long[]::new)).query(Long.class).list();
  }

  /** Deletes everything detection keeps of these series: steps (with history), points, stamps, chart summaries. */
  public void forgetSeries(List<Long> seriesIds, List<Long> steps) {
    Long[] series = seriesIds.toArray(Long[]::new);
    jdbc.sql("DELETE FROM regression WHERE id = ANY(?::bigint[])").param(steps.toArray(Long[]::new)).update();
    jdbc.sql("DELETE FROM detection_point WHERE series_id = ANY(?::bigint[])").param(series).update();
    jdbc.sql("DELETE FROM detection_stamp WHERE series_id = ANY(?::bigint[])").param(series).update();
    jdbc.sql("DELETE FROM chart_summary WHERE series_id = ANY(?::bigint[])").param(series).update();
    jdbc.sql("DELETE FROM judging_due WHERE series_id = ANY(?::bigint[])").param(series).update();
  }

  static final String POINTS = """
      DELETE FROM detection_point p USING series s, version v
      WHERE v.id = ? AND s.product_id = v.product_id AND p.series_id = s.id AND p.sort_key = v.sort_key
        AND p.version_id = v.id""";

  /** Deletes the version's steps (their history goes with them), points and judging marks. */
  public void forgetVersion(long versionId, List<Long> steps) {
    jdbc.sql("DELETE FROM regression WHERE id = ANY(?::bigint[])").param(steps.toArray(Long[]::new)).update();
    jdbc.sql(POINTS).param(versionId).update();
    jdbc.sql("DELETE FROM judging_due WHERE version_id = ?").param(versionId).update();
  }
}
