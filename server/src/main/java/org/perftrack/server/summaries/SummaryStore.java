package org.perftrack.server.summaries;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.perftrack.server.db.Rows;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The summary tables: which regression belongs to which summary, and the summary's own triage. */
@Repository
class SummaryStore {

  /** A summary row; the rest of a {@link Summary} is computed from its members. */
  record Row(long id, long productId, long versionId, String product, String version, Regression.Status status,
      String note,
      String triagedBy, OffsetDateTime createdAt, OffsetDateTime updatedAt, String withdrawnReason, String movedTo) {}

  /** A new regression that may join a summary. */
  record Candidate(long id, long productId, long versionId) {}

  private final JdbcClient jdbc;
  private final Regressions regressions;

  SummaryStore(JdbcClient jdbc, Regressions regressions) {
    this.jdbc = jdbc;
    this.regressions = regressions;
  }

  List<Candidate> candidates(List<Long> regressionIds) {
    return regressions.unsummarized(regressionIds).stream()
        .map(c -> new Candidate(c.id(), c.productId(), c.versionId())).toList();
  }

  static final String OPEN = """
      INSERT INTO summary (product_id, version_id, opened_by_run) VALUES (?, ?, ?)
      ON CONFLICT (product_id, version_id) DO NOTHING
      RETURNING id""";

  static final String FIND = "SELECT id FROM summary WHERE product_id = ? AND version_id = ?";

  /** The summary of the product's version, and whether this call opened it. */
  record Opened(long id, boolean opened) {}

  Opened openOrFind(long productId, long versionId, UUID runId) {
    Optional<Long> created = jdbc.sql(OPEN).params(productId, versionId, runId).query(Long.class).optional();
    return created.map(id -> new Opened(id, true))
        .orElseGet(() -> new Opened(jdbc.sql(FIND).params(productId, versionId).query(Long.class).single(), false));
  }

  static final String ADD = """
      INSERT INTO summary_member (regression_id, summary_id, added_by_run)
      SELECT unnest(?::bigint[]), ?, ?
      ON CONFLICT (regression_id) DO NOTHING""";

  /** A summary that gains a member is current again: a withdrawn one reopens. */
  static final String TOUCH = """
      UPDATE summary SET updated_at = now(),
             status = CASE WHEN status = 'withdrawn' THEN 'open' ELSE status END,
             withdrawn_reason = CASE WHEN status = 'withdrawn' THEN NULL ELSE withdrawn_reason END
      WHERE id = ?""";

  int add(long summaryId, List<Long> regressionIds, UUID runId) {
    int added = jdbc.sql(ADD).params(regressionIds.toArray(Long[]::new), summaryId, runId).update();
    if (added > 0) {
      jdbc.sql(TOUCH).param(summaryId).update();
    }
    return added;
  }

  static final String MEMBERS = "SELECT regression_id FROM summary_member WHERE regression_id = ANY(?::bigint[])";

  /** Which of these regressions belong to a summary. */
  Set<Long> members(List<Long> regressionIds) {
    return Set.copyOf(jdbc.sql(MEMBERS).param(regressionIds.toArray(Long[]::new)).query(Long.class).list());
  }

  /** A summary an upload opened or grew: {@code opened} when that upload (or one of those uploads) opened it. */
  record Changed(long id, boolean opened) {}

  static final String CHANGED_BY = """
      SELECT DISTINCT sm.summary_id AS id, coalesce(su.opened_by_run = ANY(?::uuid[]), false) AS opened
      FROM summary_member sm JOIN summary su ON su.id = sm.summary_id
      WHERE sm.added_by_run = ANY(?::uuid[])
      ORDER BY sm.summary_id""";

  /** The summaries these uploads opened or grew (one upload re-sent, or a session's runs on the run page). */
  List<Changed> changedBy(List<UUID> runIds) {
    UUID[] ids = runIds.toArray(UUID[]::new);
    return jdbc.sql(CHANGED_BY).params(ids, ids).query(Changed.class).list();
  }

  static final String SELECT = """
      SELECT su.id, su.product_id, su.version_id, p.name AS product, v.name AS version, su.status, su.note,
             su.triaged_by, su.created_at, su.updated_at, su.withdrawn_reason,
             array_to_string(su.moved_to, ',') AS moved_to
      FROM summary su JOIN product p ON p.id = su.product_id AND p.deletion_id IS NULL JOIN version v ON v.id = su.version_id
      """;

  Optional<Row> find(long id) {
    return jdbc.sql(SELECT + "WHERE su.id = ?").param(id).query(Rows.of(Row.class)).optional();
  }

  static final String LIST = SELECT + """
      WHERE (CAST(:product AS text) IS NULL OR p.name = :product)
        AND (CAST(:version AS text) IS NULL OR v.name = :version)
        AND su.status = ANY(CAST(:statuses AS text[]))
      ORDER BY v.sort_key DESC, su.updated_at DESC
      LIMIT :limit""";

  List<Row> list(String product, String version, List<Regression.Status> statuses, int limit) {
    return jdbc.sql(LIST).param("product", product).param("version", version)
        .param("statuses", statuses.stream().map(Regression.Status::wire).toArray(String[]::new)).param("limit", limit)
        .query(Rows.of(Row.class)).list();
  }

  /**
   * Index probes only, whatever the history: the machines that ran the version (a range of
   * {@code run_version_idx}), each kept if it also ran one of the baselines (the baselines by
   * (product_id, name), then one probe of {@code run_version_idx} per baseline and machine).
   */
  static final String MEASURED = """
      SELECT m.name FROM machine m
      WHERE m.id IN (SELECT r.machine_id FROM run r WHERE r.version_id = ? AND r.product_id = ?)
        AND EXISTS (SELECT 1 FROM version v JOIN run b ON b.version_id = v.id AND b.machine_id = m.id
                    WHERE v.product_id = ? AND v.name = ANY(?::text[]))
      ORDER BY m.name""";

  /** Machines that measured the version and one of the members' baselines. */
  List<String> machinesMeasured(long productId, long versionId, List<String> baselines) {
    String[] b = baselines.toArray(String[]::new);
    return jdbc.sql(MEASURED).params(versionId, productId, productId, b).query(String.class).list();
  }

  /** A member whose regression detection re-attributed: its summary's version is no longer its version. */
  record Moved(long id, long productId, long versionId, long fromSummary) {}

  /** Members in the series this run touched whose regression now belongs to another version. */
  List<Moved> moved(UUID runId) {
    return asMoved(regressions.reattributed(runId));
  }

  /** Members in these series whose regression now belongs to another version. */
  List<Moved> moved(List<Long> seriesIds) {
    return asMoved(regressions.reattributed(seriesIds));
  }

  private static List<Moved> asMoved(List<Regressions.Reattributed> members) {
    return members.stream().map(m -> new Moved(m.id(), m.productId(), m.versionId(), m.fromSummary())).toList();
  }

  static final String MOVE = """
      UPDATE summary_member SET summary_id = ?, added_by_run = ?, added_at = now()
      WHERE regression_id = ANY(?::bigint[])""";

  void move(List<Long> regressionIds, long toSummary, UUID runId) {
    jdbc.sql(MOVE).params(toSummary, runId, regressionIds.toArray(Long[]::new)).update();
    jdbc.sql(TOUCH).param(toSummary).update();
  }

  static final String WITHDRAW_IF_EMPTY = """
      UPDATE summary su SET status = 'withdrawn', withdrawn_reason = ?, updated_at = now(),
             moved_to = ARRAY(SELECT DISTINCT unnest(su.moved_to || ?::bigint[]) ORDER BY 1)
      WHERE su.id = ? AND NOT EXISTS (SELECT 1 FROM summary_member sm WHERE sm.summary_id = su.id)
      RETURNING su.id""";

  static final String NOTE_MOVED_TO = """
      UPDATE summary SET moved_to = ARRAY(SELECT DISTINCT unnest(moved_to || ?::bigint[]) ORDER BY 1) WHERE id = ?""";

  /** Records where members went; withdraws the summary when none is left. True when it was withdrawn. */
  boolean membersLeft(long summaryId, List<Long> to, String reason) {
    Long[] targets = to.toArray(Long[]::new);
    boolean withdrawn = jdbc.sql(WITHDRAW_IF_EMPTY).params(reason, targets, summaryId).query(Long.class).optional()
        .isPresent();
    if (!withdrawn) {
      jdbc.sql(NOTE_MOVED_TO).params(targets, summaryId).update();
    }
    return withdrawn;
  }

  static final String TRIAGE = """
      UPDATE summary SET status = ?, note = ?, triaged_by = ?, updated_at = now() WHERE id = ?""";

  void triage(long id, Regression.Status status, String note, String by) {
    jdbc.sql(TRIAGE).params(status.wire(), note, by, id).update();
  }
}
