package org.perftrack.server.detection;

import org.perftrack.server.audit.Audit;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.Rows;
import org.perftrack.server.db.SqlArrays;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/**
 * Detection's entry point for everyone who reads regressions (REST API, pages, mail) or triages one:
 * the stored {@link Regression} records, so that nobody judges differently from detection.
 */
@Repository
public class Regressions {

  private static final TypeReference<List<Regression.Hint>> HINTS = new TypeReference<>() {};

  private record Row(long id, String product, String machine, String benchmark, String metric, String unit,
      Direction direction, Regression.Kind kind, String baselineVersion, String version, double baselineValue,
      double value, double ratio, double pValue, Regression.Status status, OffsetDateTime detectedAt, OffsetDateTime updatedAt, String note,
      String triagedBy, String withdrawnReason, String hints, Long summaryId, String bisectionStatus,
      String bisectionLastGood, String bisectionFirstBad, Integer bisectionRounds, boolean confirmed,
      String firstSuspect, String lastSuspect) {

    /** The stored record; reasons stored with bare numbers read with the series' unit. */
    Regression regression(List<Regression.Event> stored) {
      List<Regression.Event> history = stored.stream().map(e -> new Regression.Event(e.at(), e.action(),
          WithdrawalReason.worded(e.reason(), unit), e.baselineVersion(), e.version(), e.ratio(), e.pValue())).toList();
      return new Regression(id, product, machine, benchmark, metric, unit, direction, kind, baselineVersion, version,
          baselineValue, value, ratio, pValue, status, detectedAt.toInstant(), updatedAt.toInstant(), note, triagedBy,
          WithdrawalReason.worded(withdrawnReason, unit), hints == null ? List.of() : Json.MAPPER.readValue(hints, HINTS), history, summaryId,
          bisectionStatus == null ? null
              : new Regression.Bisection(bisectionStatus, bisectionLastGood, bisectionFirstBad, bisectionRounds),
          confirmed, firstSuspect, lastSuspect);
    }
  }

  private final JdbcClient jdbc;
  private final Audit audit;

  Regressions(JdbcClient jdbc, Audit audit) {
    this.audit = audit;
    this.jdbc = jdbc;
  }

  static final String SELECT = """
      SELECT rg.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction, rg.kind,
             bv.name AS baseline_version, v.name AS version, rg.baseline_value, rg.value, rg.ratio, rg.p_value,
             rg.status, rg.detected_at, rg.updated_at, rg.note, rg.triaged_by, rg.withdrawn_reason,
             rg.hints::text AS hints, sm.summary_id,
             bi.status AS bisection_status, bi.last_good AS bisection_last_good,
             bi.first_bad AS bisection_first_bad, bi.rounds AS bisection_rounds, rg.confirmed,
             (SELECT fv.name FROM version fv WHERE fv.id = rg.first_suspect_version_id) AS first_suspect,
             (SELECT lv.name FROM version lv WHERE lv.id = rg.last_suspect_version_id) AS last_suspect
      FROM regression rg
      LEFT JOIN summary_member sm ON sm.regression_id = rg.id
      LEFT JOIN bisection_regression br ON br.regression_id = rg.id
      LEFT JOIN bisection bi ON bi.id = br.bisection_id
      JOIN series s ON s.id = rg.series_id
      JOIN product p ON p.id = s.product_id AND p.deletion_id IS NULL
      JOIN machine m ON m.id = s.machine_id AND m.deletion_id IS NULL
      JOIN version bv ON bv.id = rg.baseline_version_id
      JOIN version v ON v.id = rg.version_id
      """;

  /** How many steps, and how many of them open: what deleting a product, a machine or a version takes with it. */
  public record Count(long steps, long open) {}

  private static final String COUNT = """
      SELECT count(*) AS steps, count(*) FILTER (WHERE rg.status = 'open') AS open
      FROM regression rg JOIN series s ON s.id = rg.series_id WHERE\s""";

  public Count onProduct(String product) {
    return jdbc.sql(COUNT + "s.product_id = (SELECT id FROM product WHERE name = ?)").param(product)
        .query(Count.class).single();
  }

  public Count onMachine(String machine) {
    return jdbc.sql(COUNT + "s.machine_id = (SELECT id FROM machine WHERE name = ?)").param(machine)
        .query(Count.class).single();
  }

  /** The steps at a version or against it (as their baseline). */
  public Count atVersion(String product, String version) {
    return jdbc.sql(COUNT + """
        (SELECT v.id FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?)
          IN (rg.version_id, rg.baseline_version_id)""").params(product, version).query(Count.class).single();
  }

  /**
   * A step as a chart marks it: where (version, its sort key, machine, the versions it may start at) and what.
   */
  public record Marked(long id, String version, String sortKey, String machine, Regression.Kind kind, double ratio,
      Regression.Status status, Direction direction, String unit, String firstSuspect, String lastSuspect) {

    /** Where it starts as {@link Regression#place()} says it: "in 1.5.21-1", "between 1.5.20-1 and 1.5.22-1 (…)". */
    public String place() {
      String place = Regression.place(version, firstSuspect, lastSuspect);
      return place.equals(version) ? "in " + version : place;
    }
  }

  static final String MARKED = """
      SELECT rg.id, v.name AS version, v.sort_key, m.name AS machine, rg.kind, rg.ratio, rg.status, s.direction, s.unit,
             (SELECT fv.name FROM version fv WHERE fv.id = rg.first_suspect_version_id) AS first_suspect,
             (SELECT lv.name FROM version lv WHERE lv.id = rg.last_suspect_version_id) AS last_suspect
      FROM regression rg
      JOIN series s ON s.id = rg.series_id
      JOIN machine m ON m.id = s.machine_id
      JOIN version v ON v.id = rg.version_id
      WHERE rg.series_id = ANY (?) AND rg.status <> 'withdrawn'
      ORDER BY v.sort_key, m.name""";

  /** The steps recorded on these series, withdrawn ones aside, in version order (regression_series_version_idx). */
  public List<Marked> markedOn(List<Long> seriesIds) {
    return jdbc.sql(MARKED).param(seriesIds.toArray(Long[]::new)).query((rs, i) -> new Marked(rs.getLong("id"),
        rs.getString("version"), rs.getString("sort_key"), rs.getString("machine"),
        Regression.Kind.of(rs.getString("kind")), rs.getDouble("ratio"), Regression.Status.of(rs.getString("status")),
        Direction.of(rs.getString("direction")), rs.getString("unit"), rs.getString("first_suspect"),
        rs.getString("last_suspect"))).list();
  }

  static final String BY_IDS = SELECT + "WHERE rg.id = ANY(?::bigint[]) ORDER BY rg.id";

  /** The regressions (or improvements) with these ids, in id order; unknown ids are left out. */
  public List<Regression> byIds(List<Long> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return withHistory(jdbc.sql(BY_IDS).param(ids.toArray(Long[]::new)).query(Rows.of(Row.class)).list());
  }

  private record EventRow(long regressionId, OffsetDateTime at, String action, String reason,
      String baselineVersion, String version, double ratio, double pValue) {

    Regression.Event event() {
      return new Regression.Event(at.toInstant(), action, reason, baselineVersion, version, ratio, pValue);
    }
  }

  static final String HISTORY = """
      SELECT regression_id, at, action, reason, baseline_version, version, ratio, p_value
      FROM regression_event WHERE regression_id = ANY(?::bigint[])
      ORDER BY regression_id, at, id""";

  /** The rows as records, each with its history (one query for all of them). */
  private List<Regression> withHistory(List<Row> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    java.util.Map<Long, List<Regression.Event>> history = new java.util.HashMap<>();
    jdbc.sql(HISTORY).param(rows.stream().map(Row::id).toArray(Long[]::new)).query(EventRow.class).list()
        .forEach(e -> history.computeIfAbsent(e.regressionId(), k -> new java.util.ArrayList<>()).add(e.event()));
    return rows.stream().map(r -> r.regression(history.getOrDefault(r.id(), List.of()))).toList();
  }

  public Optional<Regression> find(long id) {
    return byIds(List.of(id)).stream().findFirst();
  }

  static final String CREATED_BY = SELECT + "WHERE rg.created_by_run = ? AND rg.kind = 'regression' ORDER BY rg.id";

  /** The regressions an upload created (not its improvements). */
  public List<Regression> createdBy(UUID runId) {
    return withHistory(jdbc.sql(CREATED_BY).param(runId).query(Rows.of(Row.class)).list());
  }

  static final String CREATED_BY_ANY = SELECT
      + "WHERE rg.created_by_run = ANY(?::uuid[]) AND rg.kind = 'regression' ORDER BY rg.id";

  /** The regressions these uploads created (a session's runs, on the run page). */
  public List<Regression> createdBy(List<UUID> runIds) {
    return withHistory(jdbc.sql(CREATED_BY_ANY).param(runIds.toArray(UUID[]::new)).query(Rows.of(Row.class)).list());
  }

  static final String CONFIRMED_BY = SELECT + "WHERE rg.confirmed_by_run = ? AND rg.kind = 'regression' ORDER BY rg.id";

  /** The regressions an upload confirmed: reported at the newest version by an earlier upload, shown again by this one. */
  public List<Regression> confirmedBy(UUID runId) {
    return withHistory(jdbc.sql(CONFIRMED_BY).param(runId).query(Rows.of(Row.class)).list());
  }

  static final String IN_SUMMARY = SELECT + "WHERE sm.summary_id = ? ORDER BY rg.id";

  /** The members of a summary (issue 11), every status. */
  public List<Regression> inSummary(long summaryId) {
    return withHistory(jdbc.sql(IN_SUMMARY).param(summaryId).query(Rows.of(Row.class)).list());
  }

  static final String LIST = SELECT + """
      WHERE (CAST(:product AS text) IS NULL OR p.name = :product)
        AND (CAST(:machine AS text) IS NULL OR m.name = :machine)
        AND (CAST(:version AS text) IS NULL OR v.name = :version)
        AND (CAST(:benchmark AS text) IS NULL OR s.benchmark = :benchmark)
        AND rg.status = ANY(CAST(:statuses AS text[]))
        AND rg.kind = :kind
        AND CASE WHEN rg.ratio <= 0 THEN 'Infinity'::float8 WHEN s.direction = 'higher_is_better' THEN 1 / rg.ratio
                 ELSE rg.ratio END >= :minSeverity
      """;

  /** Older than the cursor, newest first (regression_detected_idx walks this order). */
  static final String OLDER = """
        AND (rg.detected_at, rg.id) < (CAST(:at AS timestamptz), :id)
      """;

  /** Newer than the cursor, oldest first (the page is reversed after). */
  static final String NEWER = """
        AND (rg.detected_at, rg.id) > (CAST(:at AS timestamptz), :id)
      """;

  static final String NEWEST_FIRST = "ORDER BY rg.detected_at DESC, rg.id DESC LIMIT :limit";
  static final String OLDEST_FIRST = "ORDER BY rg.detected_at, rg.id LIMIT :limit";

  static final String CURSOR = "SELECT detected_at, id FROM regression WHERE id = ?";

  /**
   * Which regressions a list shows: {@code product}, {@code machine}, {@code version}, {@code benchmark} null for
   * any; {@code minSeverity} the least {@link Regression#severity()} (0 for any).
   */
  public record Criteria(String product, String machine, String version, String benchmark, double minSeverity,
      List<Regression.Status> statuses, Regression.Kind kind) {

    public Criteria(String product, String machine, String version, List<Regression.Status> statuses,
        Regression.Kind kind) {
      this(product, machine, version, null, 0, statuses, kind);
    }
  }

  /**
   * One page of a list, newest first: {@code older} when rows older than its last exist (ask again with
   * {@code before} = the last row's id), {@code newer} when rows newer than its first exist ({@code after} = the
   * first row's id).
   */
  public record Slice(List<Regression> rows, boolean older, boolean newer) {}

  /** Which way a page goes from its cursor: a regression's id, whose (detected time, id) places it in the order. */
  public enum From { START, BEFORE, AFTER }

  /**
   * A page of at most {@code limit} rows in the order newest first ({@code detected_at}, then id): the newest
   * ({@code from} START, {@code cursor} ignored), those just older than the regression {@code cursor} (BEFORE), or
   * those just newer than it (AFTER). Every filter is applied in the database, so a page is full whenever more
   * rows match.
   *
   * @throws org.perftrack.server.problems.InvalidInput naming {@code field} when {@code cursor} is no regression
   */
  public Slice page(Criteria c, From from, long cursor, String field, int limit) {
    var q = from == From.START ? jdbc.sql(LIST + NEWEST_FIRST)
        : jdbc.sql(LIST + (from == From.BEFORE ? OLDER + NEWEST_FIRST : NEWER + OLDEST_FIRST));
    if (from != From.START) {
      var at = jdbc.sql(CURSOR).param(cursor).query((rs, i) -> rs.getObject(1, OffsetDateTime.class)).optional()
          .orElseThrow(() -> new org.perftrack.server.problems.InvalidInput(field, "no regression " + cursor));
      q = q.param("at", at).param("id", cursor);
    }
    List<Row> rows = new java.util.ArrayList<>(q.param("product", c.product()).param("machine", c.machine())
        .param("version", c.version()).param("benchmark", c.benchmark())
        .param("statuses", c.statuses().stream().map(Regression.Status::wire).toArray(String[]::new))
        .param("kind", c.kind().wire()).param("minSeverity", c.minSeverity()).param("limit", limit + 1)
        .query(Rows.of(Row.class)).list());
    boolean more = rows.size() > limit;
    if (more) {
      rows.remove(limit);
    }
    if (from == From.AFTER && !more) { // back at the newest: the first page, full
      return page(c, From.START, 0, field, limit);
    }
    if (from == From.AFTER) {
      java.util.Collections.reverse(rows);
    }
    return new Slice(withHistory(rows), from == From.AFTER || more, from != From.START);
  }

  /** Newest first; {@code product}/{@code machine} null for any. */
  public List<Regression> list(String product, String machine, List<Regression.Status> statuses,
      Regression.Kind kind, int limit) {
    return page(new Criteria(product, machine, null, statuses, kind), From.START, 0, null, limit).rows();
  }

  static final String OPEN_PER_BENCHMARK = """
      SELECT s.benchmark, s.metric, count(*) AS open
      FROM regression r JOIN series s ON s.id = r.series_id
      WHERE s.product_id = ? AND r.status = 'open' AND r.kind = 'regression'
      GROUP BY s.benchmark, s.metric""";

  /** A product's open regressions per benchmark and metric (key benchmark NUL metric). */
  public java.util.Map<String, Long> openPerBenchmark(long productId) {
    java.util.Map<String, Long> open = new java.util.HashMap<>();
    jdbc.sql(OPEN_PER_BENCHMARK).param(productId).query((java.sql.ResultSet rs) -> {
      open.put(rs.getString("benchmark") + "\u0000" + rs.getString("metric"), rs.getLong("open"));
    });
    return open;
  }

  /** A new regression that may join a summary: its id, its series' product and its version. */
  public record Unsummarized(long id, long productId, long versionId) {}

  static final String UNSUMMARIZED = """
      SELECT rg.id, s.product_id, rg.version_id
      FROM regression rg JOIN series s ON s.id = rg.series_id
      WHERE rg.id = ANY(?::bigint[]) AND rg.kind = 'regression' AND rg.status = 'open'
        AND NOT EXISTS (SELECT 1 FROM summary_member sm WHERE sm.regression_id = rg.id)
      ORDER BY rg.id""";

  /** Those of these regressions that are open, not improvements, and in no summary yet. */
  public List<Unsummarized> unsummarized(List<Long> regressionIds) {
    return jdbc.sql(UNSUMMARIZED).param(regressionIds.toArray(Long[]::new)).query(Unsummarized.class).list();
  }

  /** A summary member whose regression detection re-attributed: its summary's version is no longer its version. */
  public record Reattributed(long id, long productId, long versionId, long fromSummary) {}

  static final String REATTRIBUTED_BY_RUN = """
      SELECT sm.regression_id AS id, se.product_id, rg.version_id, sm.summary_id AS from_summary
      FROM (SELECT DISTINCT series_id FROM result WHERE run_id = ?) AS touched
      JOIN regression rg ON rg.series_id = touched.series_id
      JOIN summary_member sm ON sm.regression_id = rg.id
      JOIN summary su ON su.id = sm.summary_id
      JOIN series se ON se.id = rg.series_id
      WHERE rg.version_id <> su.version_id
      ORDER BY sm.regression_id""";

  /** Summary members in the series this run touched whose regression now belongs to another version. */
  public List<Reattributed> reattributed(UUID runId) {
    return jdbc.sql(REATTRIBUTED_BY_RUN).param(runId).query(Reattributed.class).list();
  }

  /**
   * As {@link #REATTRIBUTED_BY_RUN}, given the touched series: no subquery over {@code result} and one join less to
   * plan (its planning, at every call, was 0.5 of its 0.54 ms per upload: pg_stat_statements).
   */
  static final String REATTRIBUTED_IN_SERIES = """
      SELECT sm.regression_id AS id, se.product_id, rg.version_id, sm.summary_id AS from_summary
      FROM regression rg
      JOIN summary_member sm ON sm.regression_id = rg.id
      JOIN summary su ON su.id = sm.summary_id
      JOIN series se ON se.id = rg.series_id
      WHERE rg.series_id = ANY(?::bigint[]) AND rg.version_id <> su.version_id
      ORDER BY sm.regression_id""";

  /** Summary members in these series whose regression now belongs to another version. */
  public List<Reattributed> reattributed(List<Long> seriesIds) {
    return jdbc.sql(REATTRIBUTED_IN_SERIES).param(seriesIds.toArray(Long[]::new)).query(Reattributed.class).list();
  }

  /** The samples of one run in one series. */
  public record RunSamples(long seriesId, String version, double[] samples) {}

  static final String BISECTED_SAMPLES = """
      SELECT res.series_id, v.name AS version, res.samples
        FROM result res
        JOIN run r ON r.id = res.run_id
        JOIN version v ON v.id = r.version_id
       WHERE r.id = ANY (?)
         AND res.series_id IN (SELECT rg.series_id FROM regression rg
                                 JOIN bisection_regression br ON br.regression_id = rg.id
                                WHERE br.bisection_id = ?)""";

  /** The samples these runs measured in the series of the regressions a bisection serves. */
  public List<RunSamples> bisectedSamples(long bisectionId, List<UUID> runIds) {
    return jdbc.sql(BISECTED_SAMPLES).params(runIds.toArray(UUID[]::new), bisectionId)
        .query((rs, i) -> new RunSamples(rs.getLong(1), rs.getString(2), SqlArrays.doubles(rs.getArray(3))))
        .list();
  }

  /**
   * A regression with what grouping its bisection needs: where it is and between which versions (for one reported
   * between suspect versions: the version measured before the first of them, and the last).
   */
  public record Located(long id, String product, String machine, String benchmark, String baseline, String version) {}

  /**
   * The versions a bisection of a regression runs between: its pair, or for one reported between suspect versions
   * the measured version before the first suspect and the last suspect, so that the rounds measure the suspects
   * again interleaved and place the step.
   */
  static final String BISECTION_ENDS = """
      SELECT rg.id, p.name AS product, m.name AS machine, s.benchmark,
             COALESCE((SELECT pv.name FROM detection_point dp JOIN version pv ON pv.id = dp.version_id
                        WHERE dp.series_id = rg.series_id AND dp.sort_key < fv.sort_key COLLATE "C"
                        ORDER BY dp.sort_key DESC LIMIT 1), bv.name) AS baseline,
             COALESCE(lv.name, v.name) AS version
        FROM regression rg
        JOIN series s ON s.id = rg.series_id
        JOIN product p ON p.id = s.product_id
        JOIN machine m ON m.id = s.machine_id
        JOIN version bv ON bv.id = rg.baseline_version_id
        JOIN version v ON v.id = rg.version_id
        LEFT JOIN version fv ON fv.id = rg.first_suspect_version_id
        LEFT JOIN version lv ON lv.id = rg.last_suspect_version_id
      """;

  static final String UNBISECTED = BISECTION_ENDS + """
        JOIN lab_agent a ON a.product = p.name AND a.machine = m.name AND a.deletion_id IS NULL
       WHERE rg.status = 'open' AND rg.kind = 'regression'
         AND (CAST(:id AS bigint) IS NULL OR rg.id = :id OR (p.name, m.name, bv.id, v.id) =
              (SELECT p2.name, m2.name, rg2.baseline_version_id, rg2.version_id
                 FROM regression rg2 JOIN series s2 ON s2.id = rg2.series_id
                 JOIN product p2 ON p2.id = s2.product_id JOIN machine m2 ON m2.id = s2.machine_id
                WHERE rg2.id = :id))
         AND NOT EXISTS (SELECT 1 FROM bisection_regression br WHERE br.regression_id = rg.id)
         AND NOT EXISTS (SELECT 1 FROM confirmation c WHERE c.regression_id = rg.id AND c.status = 'running')
       ORDER BY rg.id""";

  /**
   * Open regressions on machines with a lab agent that no bisection serves and the lab is not confirming; with an
   * id: that one and its siblings
   * (same product, machine, baseline and version).
   */
  public List<Located> unbisected(Long regressionId) {
    return jdbc.sql(UNBISECTED).param("id", regressionId).query(Located.class).list();
  }

  static final String LOCATED = BISECTION_ENDS + " WHERE rg.id = ?";

  /** A regression by id, where it is (also when its machine has no lab agent). */
  public Optional<Located> located(long id) {
    return jdbc.sql(LOCATED).param(id).query(Located.class).optional();
  }

  static final String TRIAGE = """
      UPDATE regression SET status = COALESCE(?, status), note = COALESCE(?, note), triaged_by = ?,
             updated_at = now()
      WHERE id = ?""";

  /**
   * A person's judgement: {@code status} one of {@link Regression.Status#TRIAGE} or null to keep it,
   * {@code note} null to keep it. Empty when there is no such regression.
   */
  public Optional<Regression> triage(long id, Regression.Status status, String note, String by) {
    if (status != null && !Regression.Status.TRIAGE.contains(status)) {
      throw new IllegalArgumentException("status must be one of " + Regression.Status.TRIAGE);
    }
    int updated = jdbc.sql(TRIAGE).params(status == null ? null : status.wire(), note, by, id).update();
    if (updated == 0) {
      return Optional.empty();
    }
    audit.record(by, "triaged", "regression " + id, (status == null ? "" : status.wire())
        + (note == null ? "" : (status == null ? "" : ": ") + note));
    return find(id);
  }
}
