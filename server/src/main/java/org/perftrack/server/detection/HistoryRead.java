package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Repository;

/** The import's read: the points of many series from a version on, in one binary, chunked statement. */
@Repository
class HistoryRead {

  private final javax.sql.DataSource dataSource;
  private final KnownNames names;

  HistoryRead(javax.sql.DataSource dataSource, KnownNames names) {
    this.dataSource = dataSource;
    this.names = names;
  }

  /** One point of a series as read for an import's detection. */
  record Loaded(VersionRef version, VersionPoint point) {}

  static final String HISTORY = """
      SELECT w.series_id, w.version_id, w.level, w.within_se, w.positive, w.sample_count
      FROM unnest(?::bigint[], ?::text[]) AS s(id, from_key)
      CROSS JOIN LATERAL (
        (SELECT p.series_id, p.sort_key, p.version_id, p.level, p.within_se, p.positive, p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < s.from_key ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.series_id, p.sort_key, p.version_id, p.level, p.within_se, p.positive, p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= s.from_key ORDER BY p.sort_key)
      ) AS w
      ORDER BY w.series_id, w.sort_key""";

  /**
   * The points of each series from {@code side} before its key on to its end, in version order: one read. An import
   * reads 100,000 points here at once: they come in PostgreSQL's binary format (the driver would otherwise ask for
   * text on a statement's first executions, and parse every number back), a chunk at a time.
   */
  Map<Long, List<Loaded>> history(Map<Long, String> from, int side) {
    Long[] ids = from.keySet().toArray(Long[]::new);
    String[] keys = new String[ids.length];
    for (int i = 0; i < ids.length; i++) {
      keys[i] = from.get(ids[i]);
    }
    List<PointRow> rows = new ArrayList<>();
    java.sql.Connection con = org.springframework.jdbc.datasource.DataSourceUtils.getConnection(dataSource);
    try (java.sql.PreparedStatement ps = con.prepareStatement(HISTORY)) {
      ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1); // binary results from the first execution
      ps.setFetchSize(8192); // in the import's transaction: a portal read in chunks
      ps.setArray(1, con.createArrayOf("bigint", ids));
      ps.setArray(2, con.createArrayOf("text", keys));
      ps.setInt(3, side);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          double se = rs.getDouble(4);
          se = rs.wasNull() ? Double.NaN : se;
          rows.add(new PointRow(rs.getLong(1), false, rs.getLong(2),
              new VersionLevel(rs.getDouble(3), se, rs.getBoolean(5), rs.getInt(6))));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading the series' points for an import failed", e);
    } finally {
      org.springframework.jdbc.datasource.DataSourceUtils.releaseConnection(con, dataSource);
    }
    Map<Long, VersionRef> names = this.names.versions(rows.stream().map(PointRow::versionId).distinct().toList());
    Map<Long, List<Loaded>> out = new HashMap<>();
    for (PointRow r : rows) {
      VersionRef v = names.get(r.versionId());
      out.computeIfAbsent(r.series(), k -> new ArrayList<>()).add(new Loaded(v, VersionPoint.summarized(v.name(), r.summary())));
    }
    return out;
  }

  /** A series' window made of points read before (an import builds 100,000 of them: nothing is copied twice). */
  SeriesWindow window(long seriesId, List<Loaded> points) {
    SeriesMeta m = names.meta(seriesId);
    List<VersionPoint> list = new ArrayList<>(points.size());
    for (Loaded p : points) {
      list.add(p.point());
    }
    return new SeriesWindow(seriesId, m.product(), m.machine(), m.benchmark(), m.metric(), m.unit(), m.direction(),
        list, new VersionIds(points));
  }

  /**
   * The version ids of a window's points, by name, as a read-only view of them: looked up a few times (when a step
   * is written) and iterated, never worth a hash map per window.
   */
  private static final class VersionIds extends java.util.AbstractMap<String, Long> {
    private final List<Loaded> points;

    VersionIds(List<Loaded> points) {
      this.points = points;
    }

    @Override
    public Long get(Object name) {
      for (Loaded p : points) {
        if (p.version().name().equals(name)) {
          return p.version().id();
        }
      }
      return null;
    }

    @Override
    public boolean containsKey(Object name) {
      return get(name) != null;
    }

    @Override
    public Set<Entry<String, Long>> entrySet() {
      return new java.util.AbstractSet<>() {
        @Override
        public java.util.Iterator<Entry<String, Long>> iterator() {
          java.util.Iterator<Loaded> it = points.iterator();
          return new java.util.Iterator<>() {
            @Override
            public boolean hasNext() {
              return it.hasNext();
            }

            @Override
            public Entry<String, Long> next() {
              VersionRef v = it.next().version();
              return Map.entry(v.name(), v.id());
            }
          };
        }

        @Override
        public int size() {
          return points.size();
        }
      };
    }
  }
}
