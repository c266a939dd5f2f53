package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the window detection needs: for each series, the versions just before and from the
 * changed version on, through {@code detection_point}'s (series, sort_key) index, so the cost
 * depends on the window and not on how long the series or the database has grown; cut from a series' kept tail
 * when that is still the series' latest.
 */
@Repository
class WindowRead {

  private final JdbcClient jdbc;
  private final KnownNames names;
  private final SeriesStamps stamps;
  private final SeriesTails tails;

  WindowRead(JdbcClient jdbc, KnownNames names, SeriesStamps stamps, SeriesTails tails) {
    this.jdbc = jdbc;
    this.names = names;
    this.stamps = stamps;
    this.tails = tails;
  }

  /**
   * The window of each series, {@code side} points before {@code sortKey} and {@code side + 1} from it on, by
   * two index range scans per series; version names come from the cache, not from a join (a join with
   * {@code version} let the cached generic plan scan all of it for every series). Not sorted by PostgreSQL:
   * {@link #around} puts each series' points in version order (they come newest first before the version, then
   * oldest first, so it reverses the first part, and sorts only if that did not give version order).
   */
  static final String WINDOW = """
      SELECT w.series_id, w.before, w.version_id, w.level, w.within_se, w.positive, w.sample_count
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (
        (SELECT p.series_id, true AS before, p.sort_key, p.version_id, p.level, p.within_se, p.positive,
                p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < ? ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.series_id, false AS before, p.sort_key, p.version_id, p.level, p.within_se, p.positive,
                p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= ? ORDER BY p.sort_key LIMIT ?)
      ) AS w""";

  /**
   * A series' window and how many of its points lie before the changed version; {@code tail}, when known, the
   * series' last points as they stand (what the window was cut from, or the window itself when it reached the
   * series' end), kept after the version's point is written; {@code keyTaken} whether a point lies at the changed
   * version's sort key already.
   */
  record Around(SeriesWindow window, int before, SeriesTail tail, boolean keyTaken, int side, boolean stamped) {}

  /** The windows of these series around one version (only series that have points, as detection read them). */
  Map<Long, SeriesWindow> windows(List<Long> seriesIds, long versionId, int side) {
    Map<Long, SeriesWindow> out = new LinkedHashMap<>();
    around(seriesIds, names.version(versionId), side).forEach((id, a) -> {
      if (!a.window().points().isEmpty()) {
        out.put(id, a.window());
      }
    });
    return out;
  }

  /**
   * The windows of these series around one version: {@code side} versions before, {@code side + 1} from it on,
   * one entry for every series asked for (with no points when it has none yet). Cut from the series' kept tail
   * when its stamp is still the series' stamp and the tail holds the window; read through the index otherwise.
   * The caller holds the series' locks.
   */
  Map<Long, Around> around(List<Long> seriesIds, VersionRef changed, int side) {
    Map<Long, Long> stamps = this.stamps.stamps(seriesIds);
    Map<Long, SeriesMeta> meta = names.metas(seriesIds);
    Map<Long, Around> cut = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long series : seriesIds) {
      SeriesTail kept = tails.tail(series);
      Long stamp = stamps.get(series);
      SeriesTail t = kept == null || stamp == null ? null : kept.at(stamp);
      Around a = t == null ? null : cut(t, changed, side, meta.get(series));
      if (a == null) {
        missing.add(series);
      } else {
        cut.put(series, a);
      }
    }
    Map<Long, Around> read = missing.isEmpty() ? Map.of() : read(missing, changed, side, meta, stamps);
    Map<Long, Around> out = new LinkedHashMap<>();
    for (Long series : seriesIds) {
      Around a = cut.get(series);
      out.put(series, a != null ? a : read.get(series));
    }
    return out;
  }

  /** The window cut from a tail; null when the tail does not hold it. */
  private static Around cut(SeriesTail t, VersionRef changed, int side, SeriesMeta m) {
    int i = t.at(changed.sortKey());
    if (i < side && !t.whole()) {
      return null;
    }
    int from = Math.max(0, i - side);
    int to = Math.min(t.versions().size(), i + side + 1);
    List<VersionPoint> points = new ArrayList<>(to - from + 1);
    List<Long> ids = new ArrayList<>(to - from + 1);
    points.addAll(t.points().subList(from, to));
    ids.addAll(t.ids().subList(from, to));
    boolean taken = i < t.versions().size() && t.versions().get(i).sortKey().equals(changed.sortKey());
    return new Around(new SeriesWindow(m.id(), m.product(), m.machine(), m.benchmark(), m.metric(), m.unit(),
        m.direction(), points, new WindowIds(points, ids)), i - from, t, taken, side, true);
  }

  /** The windows of these series read through the index (two range scans per series, one statement). */
  private Map<Long, Around> read(List<Long> seriesIds, VersionRef changed, int side, Map<Long, SeriesMeta> meta,
      Map<Long, Long> stamps) {
    Long[] ids = seriesIds.toArray(Long[]::new);
    Map<Long, List<PointRow>> bySeries = new HashMap<>();
    Set<Long> versionIds = new java.util.HashSet<>();
    jdbc.sql(WINDOW).params(ids, changed.sortKey(), side, changed.sortKey(), side + 1).query((ResultSet rs) -> {
      // by column index: looking each value's column up by name (PgResultSet.findColumn) was about 4 % of an
      // upload's server-thread samples (JFR), nearly all of them for these 2,400 rows
      long series = rs.getLong(1);
      boolean before = rs.getBoolean(2);
      long versionId = rs.getLong(3);
      double level = rs.getDouble(4);
      double se = rs.getDouble(5);
      se = rs.wasNull() ? Double.NaN : se;
      PointRow row = new PointRow(series, before, versionId, new VersionLevel(level, se, rs.getBoolean(6), rs.getInt(7)));
      bySeries.computeIfAbsent(series, k -> new ArrayList<>(2 * side + 1)).add(row);
      versionIds.add(versionId);
    });
    Map<Long, VersionRef> names = this.names.versions(versionIds);
    Map<Long, Around> out = new LinkedHashMap<>();
    for (Long series : seriesIds) {
      SeriesMeta m = meta.get(series);
      List<PointRow> rows = inVersionOrder(bySeries.getOrDefault(series, List.of()), names);
      List<VersionPoint> points = new ArrayList<>(rows.size());
      List<VersionRef> refs = new ArrayList<>(rows.size());
      Map<String, Long> versionOf = new HashMap<>();
      int before = 0;
      for (PointRow r : rows) {
        VersionRef v = names.get(r.versionId());
        points.add(VersionPoint.summarized(v.name(), r.summary()));
        refs.add(v);
        versionOf.put(v.name(), r.versionId());
        if (r.before()) {
          before++;
        }
      }
      // the rows from the version on reached the series' end when fewer than asked for came: then the window is
      // every point from its first on (all of them when fewer than side came before)
      Long stamp = stamps.get(series);
      SeriesTail tail = rows.size() - before <= side
          ? SeriesTail.of(stamp == null ? 0 : stamp, before < side, refs, points) : null;
      boolean taken = before < refs.size() && refs.get(before).sortKey().equals(changed.sortKey());
      out.put(series, new Around(new SeriesWindow(series, m.product(), m.machine(), m.benchmark(), m.metric(),
          m.unit(), m.direction(), points, versionOf), before, tail, taken, side, stamp != null));
    }
    return out;
  }

  /** One series' window rows in version order: the rows before the version came newest first. */
  private static List<PointRow> inVersionOrder(List<PointRow> rows, Map<Long, VersionRef> names) {
    int before = 0;
    while (before < rows.size() && rows.get(before).before()) {
      before++;
    }
    java.util.Collections.reverse(rows.subList(0, before));
    for (int i = 1; i < rows.size(); i++) {
      if (names.get(rows.get(i - 1).versionId()).sortKey().compareTo(names.get(rows.get(i).versionId()).sortKey())
          >= 0) {
        rows.sort(java.util.Comparator.comparing((PointRow r) -> names.get(r.versionId()).sortKey()));
        break;
      }
    }
    return rows;
  }

  /** Whether the window read already holds a point of the changed version (it had runs before this one). */
  static boolean hasPoint(Around a, VersionRef changed) {
    List<VersionPoint> points = a.window().points();
    return a.before() < points.size() && a.window().versionIds().get(points.get(a.before()).version()) == changed.id();
  }

  /**
   * The window read before this version's point was written, with that point put in its place: what
   * {@link #around} would read now ({@code side + 1} points from the changed version on). Changes the window
   * read in place ({@link #around} makes its lists and maps for each call): copying them was about 2 % of an
   * upload's server-thread CPU (JFR, 100 series).
   */
  static SeriesWindow withPoint(Around a, VersionRef changed, VersionLevel point, int side) {
    SeriesWindow w = a.window();
    List<VersionPoint> points = w.points();
    Map<String, Long> versionIds = w.versionIds();
    VersionPoint fresh = VersionPoint.summarized(changed.name(), point);
    int at = a.before();
    if (hasPoint(a, changed)) {
      points.set(at, fresh);
    } else {
      points.add(at, fresh);
      if (versionIds instanceof WindowIds view) {
        view.inserted(at, changed.id());
        if (points.size() - at > side + 1) {
          points.remove(points.size() - 1);
          view.removedLast();
        }
      } else {
        versionIds.put(changed.name(), changed.id());
        if (points.size() - at > side + 1) {
          versionIds.remove(points.remove(points.size() - 1).version());
        }
      }
    }
    return new SeriesWindow(w.seriesId(), w.product(), w.machine(), w.benchmark(), w.metric(), w.unit(),
        w.direction(), points, versionIds);
  }
}
