package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Writes the reconciler's decisions to {@code regression} and reads back what detection needs. */
@Repository
class RegressionStore {

  private final JdbcClient jdbc;

  RegressionStore(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  record Row(long id, long seriesId, String baselineVersion, String version, double baselineValue, double value,
      String kind, String status, boolean confirmed, String firstSuspect, String lastSuspect) {

    RecordedRegression recorded() {
      return new RecordedRegression(id, baselineVersion, version, baselineValue, value,
          Regression.Kind.of(kind), Regression.Status.of(status), confirmed, firstSuspect, lastSuspect);
    }
  }

  static final String RECORDED = """
      SELECT rg.id, rg.series_id,
             (SELECT bv.name FROM version bv WHERE bv.id = rg.baseline_version_id) AS baseline_version,
             (SELECT v.name FROM version v WHERE v.id = rg.version_id) AS version,
             rg.baseline_value, rg.value, rg.kind, rg.status, rg.confirmed,
             (SELECT fv.name FROM version fv WHERE fv.id = rg.first_suspect_version_id) AS first_suspect,
             (SELECT lv.name FROM version lv WHERE lv.id = rg.last_suspect_version_id) AS last_suspect
      FROM regression rg
      WHERE rg.series_id = ANY(?::bigint[]) AND rg.version_id = ANY(?::bigint[])""";

  /**
   * The stored steps of these series whose version is one of {@code versionIds}, by series: an index probe per
   * (series, version) pair and a name lookup per step found (a join with {@code version} let the cached generic
   * plan scan it whole, which grows with history).
   */
  Map<Long, List<RecordedRegression>> recorded(List<Long> seriesIds, List<Long> versionIds) {
    Map<Long, List<RecordedRegression>> out = new HashMap<>();
    jdbc.sql(RECORDED).params(seriesIds.toArray(Long[]::new), versionIds.toArray(Long[]::new))
        .query(Row.class).list()
        .forEach(r -> out.computeIfAbsent(r.seriesId(), k -> new ArrayList<>()).add(r.recorded()));
    return out;
  }

  static final String SERIES_WITH_STEPS = """
      SELECT s.id FROM unnest(?::bigint[]) AS s(id)
      WHERE EXISTS (SELECT 1 FROM regression rg WHERE rg.series_id = s.id)""";

  /** Those of these series that have a stored step (of any status): one index probe each. */
  Set<Long> seriesWithSteps(List<Long> seriesIds) {
    return new HashSet<>(jdbc.sql(SERIES_WITH_STEPS).param(seriesIds.toArray(Long[]::new)).query(Long.class).list());
  }

  static final String INSERT = """
      INSERT INTO regression (series_id, baseline_version_id, version_id, kind, baseline_value, value, ratio,
                              p_value, hints, created_by_run, confirmed, first_suspect_version_id,
                              last_suspect_version_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?)
      RETURNING id""";

  static final String UPDATE = """
      UPDATE regression AS rg SET baseline_version_id = u.baseline_version_id, version_id = u.version_id,
             baseline_value = u.baseline_value, value = u.value, ratio = u.ratio, p_value = u.p_value,
             hints = CAST(u.hints AS jsonb), updated_at = now(),
             first_suspect_version_id = u.first_suspect, last_suspect_version_id = u.last_suspect,
             confirmed = rg.confirmed OR u.confirmed,
             confirmed_by_run = CASE WHEN rg.confirmed THEN rg.confirmed_by_run WHEN u.confirmed THEN u.run END
      FROM unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::float8[], ?::float8[], ?::float8[], ?::float8[],
                  ?::text[], ?::boolean[], ?::uuid[], ?::bigint[], ?::bigint[])
           AS u(id, baseline_version_id, version_id, baseline_value, value, ratio, p_value, hints, confirmed, run,
                first_suspect, last_suspect)
      WHERE rg.id = u.id""";

  /** Confirmations and re-attributions of one run, written in one statement (the run confirms what it shows later). */
  final class Updates {
    private final List<Object[]> rows = new ArrayList<>();

    void add(Decision d, SeriesWindow window, String hintJson, UUID runId) {
      Step s = d.step();
      rows.add(new Object[] {d.regressionId(), window.versionIds().get(s.baselineVersion()),
          window.versionIds().get(s.version()), s.baselineValue(), s.value(), s.ratio(), s.pValue(), hintJson,
          s.confirmed(), runId, suspect(window, s, s.firstSuspect()), suspect(window, s, s.lastSuspect())});
    }

    void flush() {
      if (rows.isEmpty()) {
        return;
      }
      Object[][] columns = new Object[12][];
      Class<?>[] types = {Long.class, Long.class, Long.class, Double.class, Double.class, Double.class,
          Double.class, String.class, Boolean.class, UUID.class, Long.class, Long.class};
      for (int c = 0; c < columns.length; c++) {
        columns[c] = (Object[]) java.lang.reflect.Array.newInstance(types[c], rows.size());
        for (int r = 0; r < rows.size(); r++) {
          columns[c][r] = rows.get(r)[c];
        }
      }
      jdbc.sql(UPDATE).params((Object[]) columns).update();
      rows.clear();
    }
  }

  /** The id of a suspect version to store: null when the step is placed exactly (its only suspect is itself). */
  private static Long suspect(SeriesWindow window, Step s, String version) {
    return s.ranged() ? window.versionIds().get(version) : null;
  }

  Updates updates() {
    return new Updates();
  }

  static final String REOPEN = """
      UPDATE regression SET status = 'open', withdrawn_reason = NULL, created_by_run = ?, updated_at = now()
      WHERE id = ?""";

  static final String WITHDRAW = """
      UPDATE regression SET status = 'withdrawn', withdrawn_reason = ?, updated_at = now()
      WHERE id = ? AND status = 'open'""";

  static final String EVENT = """
      INSERT INTO regression_event (regression_id, action, reason, baseline_version, version, ratio, p_value)
      VALUES (?, ?, ?, ?, ?, ?, ?)""";

  static final String WITHDRAWN_EVENT = """
      INSERT INTO regression_event (regression_id, action, reason, baseline_version, version, ratio, p_value)
      SELECT rg.id, 'withdrawn', rg.withdrawn_reason, bv.name, v.name, rg.ratio, rg.p_value
      FROM regression rg JOIN version bv ON bv.id = rg.baseline_version_id JOIN version v ON v.id = rg.version_id
      WHERE rg.id = ?""";

  /**
   * Applies one decision (confirmations and re-attributions go to {@code updates}); returns the id of
   * a regression this run raised (created or reopened), else null. Every change of mind (all but a
   * confirmation) is also written to the regression's history.
   */
  Long apply(Decision d, SeriesWindow window, List<Regression.Hint> hints, UUID runId, Updates updates) {
    Step s = d.step();
    String hintJson = Json.MAPPER.writeValueAsString(hints);
    return switch (d.action()) {
      case CREATE -> {
        long id = jdbc.sql(INSERT).params(window.seriesId(), window.versionIds().get(s.baselineVersion()),
            window.versionIds().get(s.version()), s.kind().wire(), s.baselineValue(), s.value(), s.ratio(),
            s.pValue(), hintJson, runId, s.confirmed(), suspect(window, s, s.firstSuspect()),
            suspect(window, s, s.lastSuspect())).query(Long.class).single();
        event(id, "opened", s.evidence(), s);
        yield id;
      }
      case CONFIRM -> {
        updates.add(d, window, hintJson, runId);
        if (d.reason() != null) {
          event(d.regressionId(), "placed", d.reason(), s);
        }
        confirmedEvent(d);
        yield null;
      }
      case REATTRIBUTE -> {
        updates.add(d, window, hintJson, runId);
        event(d.regressionId(), "reattributed", d.reason(), s);
        confirmedEvent(d);
        yield null;
      }
      case REOPEN -> {
        updates.add(d, window, hintJson, runId);
        jdbc.sql(REOPEN).params(runId, d.regressionId()).update();
        event(d.regressionId(), "reopened", d.reason() + "; " + s.evidence(), s);
        yield d.regressionId();
      }
      case WITHDRAW -> {
        if (jdbc.sql(WITHDRAW).params(d.reason(), d.regressionId()).update() == 1) {
          jdbc.sql(WITHDRAWN_EVENT).param(d.regressionId()).update();
        }
        yield null;
      }
    };
  }

  private void confirmedEvent(Decision d) {
    if (d.confirms()) {
      event(d.regressionId(), "confirmed", "a later version shows the new level too", d.step());
    }
  }

  private void event(long id, String action, String reason, Step s) {
    jdbc.sql(EVENT).params(id, action, reason, s.baselineVersion(), s.version(), s.ratio(), s.pValue()).update();
  }

}
