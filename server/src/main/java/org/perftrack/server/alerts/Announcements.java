package org.perftrack.server.alerts;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.perftrack.formats.Json;
import org.perftrack.server.versions.VersionKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Remembers every regression that reached the alerts, so that one step in a series is announced once:
 * a regression seen before (a re-sent run) or one whose version range overlaps an announced one in the
 * same series (detection re-attributed the step, e.g. after a backfill) raises no second alarm.
 */
@Repository
class Announcements {

  private final JdbcClient jdbc;

  Announcements(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String OVERLAPS = """
      SELECT EXISTS (SELECT 1 FROM alert_regression
                      WHERE announced AND product = ? AND machine = ? AND benchmark = ? AND metric = ?
                        AND baseline_key < ? AND ? < version_key)""";

  static final String INSERT = """
      INSERT INTO alert_regression
        (regression_id, run_id, product, machine, benchmark, metric, baseline_key, version_key, announced, item)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb))
      ON CONFLICT (regression_id) DO NOTHING""";

  /** Records the items and returns those that deserve a mail. */
  List<AlertItem> record(UUID runId, List<AlertItem> items) {
    List<AlertItem> fresh = new ArrayList<>();
    for (AlertItem item : items) {
      String base = VersionKey.of(item.baselineVersion());
      String head = VersionKey.of(item.version());
      boolean overlaps = jdbc.sql(OVERLAPS).params(item.product(), item.machine(), item.benchmark(), item.metric(),
          head, base).query(Boolean.class).single();
      boolean inserted = jdbc.sql(INSERT).params(item.regressionId(), runId, item.product(), item.machine(),
          item.benchmark(), item.metric(), base, head, !overlaps, Json.MAPPER.writeValueAsString(item)).update() == 1;
      if (inserted && !overlaps) {
        fresh.add(item);
      }
    }
    return fresh;
  }

  /**
   * Announced regressions that detection still has open, newest first: what a digest lists. One that
   * was triaged (fixed, invalid, …) or withdrawn drops out; one detection does not know stays in.
   */
  List<AlertItem> stillOpen() {
    return jdbc.sql(STILL_OPEN).query(String.class).list().stream()
        .map(s -> Json.MAPPER.readValue(s, AlertItem.class)).toList();
  }

  static final String STILL_OPEN = """
      SELECT CAST(a.item AS text) FROM alert_regression a
       WHERE a.announced
         AND NOT EXISTS (SELECT 1 FROM regression g WHERE g.id = a.regression_id AND g.status <> 'open')
       ORDER BY a.created_at DESC, a.regression_id""";
}
