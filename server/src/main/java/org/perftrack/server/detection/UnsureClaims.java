package org.perftrack.server.detection;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What detection is unsure of, for the lab to settle by measuring again ({@code lab.Confirmer}): today an open claim
 * whose suspect versions span more than one version. And what the lab found, written to the claim's history.
 */
@Repository
public class UnsureClaims {

  /**
   * An unsure claim of one series: {@code suspects} are the versions the step may start at and the measured one
   * before the first of them, in version order.
   */
  public record UnsureClaim(long regressionId, long seriesId, String product, String machine, String benchmark,
      String metric, List<String> suspects) {}

  private final JdbcClient jdbc;

  UnsureClaims(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Open ranged claims on machines whose lab agent takes confirm jobs, that the lab never confirmed and no
   * bisection serves; the series' measured versions from the one before the first suspect to the last suspect.
   */
  static final String RANGED = """
      SELECT rg.id, rg.series_id, p.name AS product, m.name AS machine, s.benchmark, s.metric,
             ARRAY(SELECT pv.name FROM detection_point dp JOIN version pv ON pv.id = dp.version_id
                    WHERE dp.series_id = rg.series_id AND dp.sort_key <= lv.sort_key COLLATE "C"
                      AND dp.sort_key >= COALESCE((SELECT max(b.sort_key) FROM detection_point b
                                                    WHERE b.series_id = rg.series_id
                                                      AND b.sort_key < fv.sort_key COLLATE "C"), fv.sort_key)
                    ORDER BY dp.sort_key) AS suspects
        FROM regression rg
        JOIN series s ON s.id = rg.series_id
        JOIN product p ON p.id = s.product_id
        JOIN machine m ON m.id = s.machine_id
        JOIN version fv ON fv.id = rg.first_suspect_version_id
        JOIN version lv ON lv.id = rg.last_suspect_version_id
        JOIN lab_agent a ON a.product = p.name AND a.machine = m.name AND a.deletion_id IS NULL
                        AND 'confirm' = ANY (a.kinds)
       WHERE rg.status = 'open' AND rg.first_suspect_version_id <> rg.last_suspect_version_id
         AND NOT EXISTS (SELECT 1 FROM confirmation c WHERE c.regression_id = rg.id)
         AND NOT EXISTS (SELECT 1 FROM bisection_regression br WHERE br.regression_id = rg.id)
       ORDER BY rg.id""";

  public List<UnsureClaim> ranged() {
    return jdbc.sql(RANGED).query((rs, i) -> new UnsureClaim(rs.getLong("id"), rs.getLong("series_id"),
        rs.getString("product"), rs.getString("machine"), rs.getString("benchmark"), rs.getString("metric"),
        List.of((String[]) rs.getArray("suspects").getArray()))).list();
  }

  static final String EVENT = """
      INSERT INTO regression_event (regression_id, action, reason, baseline_version, version, ratio, p_value)
      SELECT rg.id, ?, ?, bv.name, v.name, rg.ratio, rg.p_value
        FROM regression rg JOIN version bv ON bv.id = rg.baseline_version_id JOIN version v ON v.id = rg.version_id
       WHERE rg.id = ?""";

  /** The lab placed the claim: "placed at 1.5.21-1 after 2 re-runs of 1.5.20-1..1.5.22-1". */
  public void placed(long regressionId, String reason) {
    jdbc.sql(EVENT).params("placed", reason, regressionId).update();
  }
}
