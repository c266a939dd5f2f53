package org.perftrack.server.annotations;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the annotations: the notes, where each falls on a product's chart, and the summaries they explain. */
@Repository
class AnnotationStore {

  /** A note to store; ids of its scope (null: any), and for an environment note the runs it compares. */
  record Row(Annotation.Kind kind, Instant at, Long productId, Long machineId, Long versionId, String text,
      String link, String subject, UUID runId, UUID afterRunId, String by) {}

  /** A note placed on a product's chart: the version it falls at, and that version's sort key. */
  record Placed(Annotation note, String version, String sortKey) {}

  private final JdbcClient jdbc;

  AnnotationStore(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String INSERT = """
      INSERT INTO annotation (kind, at, product_id, machine_id, version_id, text, link, subject, run_id, after_run_id,
                              created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (machine_id, after_run_id, text) WHERE after_run_id IS NOT NULL DO NOTHING
      RETURNING id""";

  /** The new note's id; empty when the same change of the same machine was noted already (by a concurrent run). */
  Optional<Long> insert(Row r) {
    return jdbc.sql(INSERT).params(r.kind().wire(), r.at() == null ? null : java.sql.Timestamp.from(r.at()),
            r.productId(), r.machineId(), r.versionId(), r.text(), r.link(), r.subject(), r.runId(), r.afterRunId(),
            r.by()).query(Long.class).optional();
  }

  static final String SELECT = """
      SELECT a.id, a.kind, a.at, p.name AS product, v.name AS version, m.name AS machine, a.text, a.link, a.subject,
             a.run_id, a.created_by, a.created_at
      FROM annotation a LEFT JOIN product p ON p.id = a.product_id LEFT JOIN machine m ON m.id = a.machine_id
           LEFT JOIN version v ON v.id = a.version_id""";

  Optional<Annotation> find(long id) {
    return jdbc.sql(SELECT + " WHERE a.id = ? AND a.deletion_id IS NULL").param(id).query(AnnotationStore::note)
        .optional();
  }

  static final String LIST = SELECT + """

      WHERE a.deletion_id IS NULL
        AND (?::bigint IS NULL OR a.product_id IS NULL OR a.product_id = ?)
        AND (?::bigint IS NULL OR a.machine_id IS NULL OR a.machine_id = ?)
        AND (?::text IS NULL OR a.kind = ?)
        AND (?::timestamptz IS NULL OR coalesce(a.at, v.created_at) >= ?)
        AND (?::timestamptz IS NULL OR coalesce(a.at, v.created_at) < ?)
      ORDER BY coalesce(a.at, v.created_at) DESC, a.id DESC LIMIT ?""";

  /** Newest first; a product or machine filter keeps the notes that apply to it (those for all products too). */
  List<Annotation> list(Long productId, Long machineId, Annotation.Kind kind, Instant from, Instant to, int limit) {
    String k = kind == null ? null : kind.wire();
    java.sql.Timestamp f = from == null ? null : java.sql.Timestamp.from(from);
    java.sql.Timestamp t = to == null ? null : java.sql.Timestamp.from(to);
    return jdbc.sql(LIST).params(productId, productId, machineId, machineId, k, k, f, f, t, t, limit)
        .query(AnnotationStore::note).list();
  }

  static final String PLACED = SELECT.replace("SELECT a.id,",
      "SELECT placed.version AS placed_version, placed.sort_key AS placed_key, a.id,") + """

      CROSS JOIN LATERAL (
        SELECT x.name, x.sort_key FROM version x WHERE x.id = a.version_id
        UNION ALL
        (SELECT x.name, x.sort_key FROM version x
         WHERE a.at IS NOT NULL AND x.product_id = ? AND x.deletion_id IS NULL
           AND EXISTS (SELECT 1 FROM run r WHERE r.version_id = x.id AND r.machine_id = ANY(?::bigint[])
                       AND (a.machine_id IS NULL OR r.machine_id = a.machine_id) AND r.deletion_id IS NULL)
           AND NOT EXISTS (SELECT 1 FROM run r WHERE r.version_id = x.id AND r.machine_id = ANY(?::bigint[])
                           AND (a.machine_id IS NULL OR r.machine_id = a.machine_id) AND coalesce(r.started_at, r.received_at) < a.at)
         ORDER BY x.sort_key LIMIT 1)) AS placed (version, sort_key)
      WHERE a.deletion_id IS NULL AND (a.product_id IS NULL OR a.product_id = ?)
        AND (a.machine_id IS NULL OR a.machine_id = ANY(?::bigint[]))
      ORDER BY placed.sort_key, a.id""";

  /**
   * The notes that fall on the chart of a product measured on these machines, each at its version: a version's note
   * at that version, a time's note at the first version (in version order) whose first run on those machines (the
   * note's machine, if it names one) started after it, the version whose values are the first measured since.
   */
  List<Placed> placed(long productId, List<Long> machineIds) {
    Long[] ms = machineIds.toArray(Long[]::new);
    return jdbc.sql(PLACED).params(productId, ms, ms, productId, ms)
        .query((rs, i) -> new Placed(note(rs, i), rs.getString("placed_version"), rs.getString("placed_key")))
        .list();
  }

  static final String SERIES = """
      SELECT DISTINCT product_id, machine_id FROM series WHERE id = ANY(?::bigint[]) ORDER BY product_id, machine_id""";

  /** The product and the machines of charted series (a chart shows one product). */
  List<long[]> productAndMachines(List<Long> seriesIds) {
    return jdbc.sql(SERIES).param(seriesIds.toArray(Long[]::new))
        .query((rs, i) -> new long[] {rs.getLong(1), rs.getLong(2)}).list();
  }

  static final String SAME_DAY = """
      SELECT DISTINCT m.name FROM annotation a JOIN machine m ON m.id = a.machine_id
      WHERE a.kind = 'environment' AND a.deletion_id IS NULL AND a.subject = ?
        AND a.at >= date_trunc('day', ?::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
        AND a.at < (date_trunc('day', ?::timestamptz AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC'
        AND EXISTS (SELECT 1 FROM run r WHERE r.machine_id = a.machine_id AND r.product_id = ?)
      ORDER BY m.name""";

  /**
   * The machines measuring a product whose environment changed in the same way ({@code subject}) on the UTC day of
   * {@code at}.
   */
  List<String> machinesChangedSameDay(String subject, Instant at, long productId) {
    java.sql.Timestamp t = java.sql.Timestamp.from(at);
    return jdbc.sql(SAME_DAY).params(subject, t, t, productId).query(String.class).list();
  }

  Optional<Long> productId(String name) {
    return jdbc.sql("SELECT id FROM product WHERE name = ? AND deletion_id IS NULL").param(name).query(Long.class)
        .optional();
  }

  Optional<Long> machineId(String name) {
    return jdbc.sql("SELECT id FROM machine WHERE name = ? AND deletion_id IS NULL").param(name).query(Long.class)
        .optional();
  }

  Optional<Long> versionId(long productId, String name) {
    return jdbc.sql("SELECT id FROM version WHERE product_id = ? AND name = ? AND deletion_id IS NULL")
        .params(productId, name).query(Long.class).optional();
  }

  Optional<String> sortKey(long productId, String version) {
    return jdbc.sql("SELECT sort_key FROM version WHERE product_id = ? AND name = ?").params(productId, version)
        .query(String.class).optional();
  }

  static final String CAUSE = """
      INSERT INTO annotation_cause (summary_id, annotation_id, set_by) VALUES (?, ?, ?)
      ON CONFLICT (summary_id) DO UPDATE SET annotation_id = excluded.annotation_id, set_by = excluded.set_by,
                                             set_at = now()""";

  void setCause(long summaryId, long annotationId, String by) {
    jdbc.sql(CAUSE).params(summaryId, annotationId, by).update();
  }

  /** The note a summary was triaged as caused by (if it is not deleted). */
  Optional<Annotation> causeOf(long summaryId) {
    return jdbc.sql(SELECT + " JOIN annotation_cause c ON c.annotation_id = a.id"
        + " WHERE c.summary_id = ? AND a.deletion_id IS NULL").param(summaryId).query(AnnotationStore::note).optional();
  }

  static Annotation note(ResultSet rs, int row) throws SQLException {
    java.sql.Timestamp at = rs.getTimestamp("at");
    return new Annotation(rs.getLong("id"), Annotation.Kind.valueOf(rs.getString("kind").toUpperCase(java.util.Locale.ROOT)),
        at == null ? null : at.toInstant(), rs.getString("product"), rs.getString("version"), rs.getString("machine"),
        rs.getString("text"), rs.getString("link"), rs.getString("subject"), rs.getString("run_id"),
        rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
  }
}
