package org.perftrack.server.alerts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.perftrack.server.db.Json;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.wire.VersionKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Remembers every regression that reached the alerts, so that one step in a series is announced once:
 * a regression seen before (a re-sent run) or one whose version range overlaps an announced one in the
 * same series (detection re-attributed the step, e.g. after a backfill) raises no second alarm.
 * One statement per upload for each question, however many regressions it raised.
 */
@Repository
class Announcements {

  private final JdbcClient jdbc;
  private final Regressions regressions;

  Announcements(JdbcClient jdbc, Regressions regressions) {
    this.jdbc = jdbc;
    this.regressions = regressions;
  }

  static final String ITEMS = """
      unnest(CAST(:ids AS bigint[]), CAST(:products AS text[]), CAST(:machines AS text[]),
             CAST(:benchmarks AS text[]), CAST(:metrics AS text[]), CAST(:bases AS text[]), CAST(:heads AS text[]))
        AS i(regression_id, product, machine, benchmark, metric, baseline_key, version_key)""";

  static final String OVERLAPPING = "SELECT i.regression_id FROM " + ITEMS + """

      WHERE EXISTS (SELECT 1 FROM alert_regression a
                     WHERE a.announced AND a.product = i.product AND a.machine = i.machine
                       AND a.benchmark = i.benchmark AND a.metric = i.metric
                       AND a.baseline_key < i.version_key COLLATE "C" AND i.baseline_key < a.version_key COLLATE "C")""";

  static final String INSERT = """
      INSERT INTO alert_regression
        (regression_id, run_id, product, machine, benchmark, metric, baseline_key, version_key, announced, item)
      SELECT i.regression_id, :run, i.product, i.machine, i.benchmark, i.metric, i.baseline_key, i.version_key,
             NOT (i.regression_id = ANY(CAST(:overlapping AS bigint[]))), CAST(j.item AS jsonb)
        FROM\s""" + ITEMS + """

        JOIN unnest(CAST(:ids AS bigint[]), CAST(:items AS text[])) AS j(regression_id, item)
          ON j.regression_id = i.regression_id
      ON CONFLICT (regression_id) DO NOTHING
      RETURNING regression_id""";

  /** Records the regressions and returns those that deserve a mail, in the given order. */
  List<Regression> record(UUID runId, List<Regression> items) {
    if (items.isEmpty()) {
      return List.of();
    }
    Map<String, Object> params = Map.of(
        "ids", items.stream().map(Regression::id).toArray(Long[]::new),
        "products", items.stream().map(Regression::product).toArray(String[]::new),
        "machines", items.stream().map(Regression::machine).toArray(String[]::new),
        "benchmarks", items.stream().map(Regression::benchmark).toArray(String[]::new),
        "metrics", items.stream().map(Regression::metric).toArray(String[]::new),
        "bases", items.stream().map(r -> VersionKey.of(r.baselineVersion())).toArray(String[]::new),
        "heads", items.stream().map(r -> VersionKey.of(r.version())).toArray(String[]::new));
    Long[] overlapping = jdbc.sql(OVERLAPPING).params(params).query(Long.class).list().toArray(Long[]::new);
    Set<Long> inserted = new HashSet<>(jdbc.sql(INSERT).params(params).param("run", runId)
        .param("overlapping", overlapping)
        .param("items", items.stream().map(Json.MAPPER::writeValueAsString).toArray(String[]::new))
        .query(Long.class).list());
    Set<Long> overlaps = Set.of(overlapping);
    return items.stream().filter(r -> inserted.contains(r.id()) && !overlaps.contains(r.id())).toList();
  }

  static final String ANNOUNCED = """
      SELECT a.regression_id AS id, CAST(a.item AS text) AS item FROM alert_regression a
       WHERE a.announced
       ORDER BY a.created_at DESC, a.regression_id""";

  private record Announced(long id, String item) {}

  /**
   * Announced regressions that detection still has open, newest first, as detection has them now
   * (hints and values of today): what a digest lists. One that was triaged (fixed, invalid, …) or
   * withdrawn drops out; one detection does not know stays in, as it was announced.
   */
  List<Regression> stillOpen() {
    List<Announced> announced = jdbc.sql(ANNOUNCED).query(Announced.class).list();
    Map<Long, Regression> known = regressions.byIds(announced.stream().map(Announced::id).toList()).stream()
        .collect(Collectors.toMap(Regression::id, Function.identity()));
    List<Regression> open = new ArrayList<>();
    for (Announced a : announced) {
      Regression r = known.get(a.id());
      if (r == null) {
        open.add(Json.MAPPER.readValue(a.item(), Regression.class));
      } else if (r.status() == Regression.Status.OPEN) {
        open.add(r);
      }
    }
    return open;
  }
}
