package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.perftrack.server.db.SqlArrays;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the window detection needs: for each series, the versions just before and from the
 * changed version on, through {@code detection_point}'s (series, sort_key) index, so the cost
 * depends on the window and not on how long the series or the database has grown. What never changes
 * once written (a version's name and sort key, a series' names, unit and direction) is cached by id; an id
 * of a rolled-back insert is never handed out again, so a cached entry can never be wrong.
 */
@Repository
class WindowQueries {

  private final JdbcClient jdbc;
  private final javax.sql.DataSource dataSource;

  WindowQueries(JdbcClient jdbc, javax.sql.DataSource dataSource) {
    this.jdbc = jdbc;
    this.dataSource = dataSource;
  }

  /**
   * Serialises detection per series: two uploads touching one series must not both create the same
   * step. Transaction-scoped advisory locks keyed by the series id (nothing else in perftrack takes advisory
   * locks): unlike row locks they write nothing (no tuple update, no WAL) and they are released at commit or
   * rollback. Taken in id order, so two runs cannot deadlock.
   */
  static final String LOCK_SERIES = """
      SELECT count(pg_advisory_xact_lock(o.id))
      FROM (SELECT DISTINCT id FROM unnest(?::bigint[]) AS s(id) ORDER BY id) AS o""";

  void lockSeries(List<Long> seriesIds) {
    jdbc.sql(LOCK_SERIES).param(seriesIds.toArray(Long[]::new)).query(Long.class).single();
  }

  /** A version as detection needs it: its name and its place in version order. */
  record VersionRef(long id, String name, String sortKey) {}

  private static final int CACHE_LIMIT = 200_000;
  private final Map<Long, VersionRef> versions = new ConcurrentHashMap<>();
  private final Map<Long, Meta> metas = new ConcurrentHashMap<>();

  static final String VERSIONS = "SELECT id, name, sort_key FROM version WHERE id = ANY(?::bigint[])";

  VersionRef version(long versionId) {
    return versions(List.of(versionId)).get(versionId);
  }

  /** The names and sort keys of these versions, from the cache or one query for those it lacks. */
  Map<Long, VersionRef> versions(java.util.Collection<Long> ids) {
    Map<Long, VersionRef> out = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long id : ids) {
      VersionRef v = versions.get(id);
      if (v == null) {
        missing.add(id);
      } else {
        out.put(id, v);
      }
    }
    if (!missing.isEmpty()) {
      jdbc.sql(VERSIONS).param(missing.toArray(Long[]::new)).query(VersionRef.class).list().forEach(v -> {
        out.put(v.id(), v);
        remember(versions, v.id(), v);
      });
    }
    return out;
  }

  /** A version whose name and sort key are known (just inserted). */
  void knownVersion(VersionRef v) {
    remember(versions, v.id(), v);
  }

  private static <V> void remember(Map<Long, V> cache, long id, V value) {
    if (cache.size() >= CACHE_LIMIT) {
      cache.clear();
    }
    cache.put(id, value);
  }

  static final String SAMPLES = """
      SELECT series_id, samples::text AS samples, n, mean, median, stddev FROM result
      WHERE series_id = ANY(?::bigint[]) AND version_id = ?
      ORDER BY series_id, run_id""";

  /**
   * The point of every series for this version, from the samples of all its stored runs (read back: used when
   * the version had runs before, and by imports).
   */
  Map<Long, VersionLevel> readPoints(List<Long> seriesIds, long versionId) {
    Map<Long, List<double[]>> samples = new LinkedHashMap<>();
    Map<Long, List<VersionLevel>> summaries = new LinkedHashMap<>();
    if (seriesIds.isEmpty()) {
      return Map.of();
    }
    jdbc.sql(SAMPLES).params(seriesIds.toArray(Long[]::new), versionId).query((ResultSet rs) -> {
      double[] values = parse(rs.getString("samples"));
      samples.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(values);
      if (values.length == 0) {
        double median = rs.getDouble("median");
        Double med = rs.wasNull() ? null : median;
        double stddev = rs.getDouble("stddev");
        Double sd = rs.wasNull() ? null : stddev;
        summaries.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>())
            .add(summaryOnly(rs.getInt("n"), rs.getDouble("mean"), med, sd));
      }
    });
    Map<Long, VersionLevel> out = new LinkedHashMap<>();
    for (Map.Entry<Long, List<double[]>> e : samples.entrySet()) {
      double[] all = concat(e.getValue());
      out.put(e.getKey(), all.length > 0 ? VersionLevel.of(all) : pooled(summaries.get(e.getKey())));
    }
    return out;
  }

  /** The point of a version with one run: this run's own values, as {@link #readPoints} would read them back. */
  static VersionLevel pointOf(StoredRun.Values v) {
    return v.samples().length > 0 ? VersionLevel.of(v.samples()) : summaryOnly(v.n(), v.mean(), v.median(), v.stddev());
  }

  private static final String POINTS_OF_VERSION = """
      INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
      SELECT u.series_id, ?, ?, u.level, u.within_se, u.positive, u.sample_count
      FROM unnest(?::bigint[], ?::float8[], ?::float8[], ?::boolean[], ?::integer[])
           AS u(series_id, level, within_se, positive, sample_count)""";

  /**
   * Writes the points of one version and sets their series' stamps ({@link #STAMP}), in one statement; returns
   * the stamp. Without {@code ON CONFLICT} when {@code fresh}: the caller holds the series' locks and saw no point
   * at the version's sort key in any of them.
   */
  static final String UPSERT_POINTS = "WITH written AS (" + POINTS_OF_VERSION + """

      ON CONFLICT (series_id, sort_key) DO UPDATE
      SET level = EXCLUDED.level, within_se = EXCLUDED.within_se, positive = EXCLUDED.positive,
          sample_count = EXCLUDED.sample_count
      RETURNING series_id)
      """ + "INSERT INTO detection_stamp (series_id, stamp) SELECT series_id, txid_current() FROM written"
      + " ON CONFLICT (series_id) DO UPDATE SET stamp = EXCLUDED.stamp RETURNING stamp";

  static final String INSERT_POINTS = "WITH written AS (" + POINTS_OF_VERSION + """

      RETURNING series_id)
      """ + "INSERT INTO detection_stamp (series_id, stamp) SELECT series_id, txid_current() FROM written"
      + " ON CONFLICT (series_id) DO UPDATE SET stamp = EXCLUDED.stamp RETURNING stamp";

  /**
   * As {@link #INSERT_POINTS} when every series has a stamp already: an update in place (an upsert's conflict
   * first locks each row, one more WAL record a row).
   */
  static final String INSERT_POINTS_STAMPED = "WITH written AS (" + POINTS_OF_VERSION + """

      RETURNING series_id)
      UPDATE detection_stamp d SET stamp = txid_current() FROM written w WHERE d.series_id = w.series_id
      RETURNING d.stamp""";

  /**
   * Writes the points of one version, in one statement, and keeps the tails of their series (with the stamp this
   * transaction gave them): what {@link #around} read, with the new points in place. Before commit: were the
   * transaction rolled back, the series' stamps would still be the old ones and these tails would not be used.
   */
  void writePoints(Map<Long, VersionLevel> points, VersionRef version, Map<Long, Around> read, boolean fresh) {
    boolean stamped = read.values().stream().allMatch(Around::stamped);
    Long stamp = insertPoints(points, version,
        !fresh ? UPSERT_POINTS : stamped ? INSERT_POINTS_STAMPED : INSERT_POINTS);
    read.forEach((series, a) -> {
      VersionLevel p = points.get(series);
      Tail t = a.tail();
      if (p == null) {
        if (t != null && t.stamp() != 0) {
          rememberTail(series, t);
        }
      } else if (stamp != null && t != null) {
        rememberTail(series, t.with(version, Point.summarized(version.name(), p), stamp, tailKeep(a.side())));
      } else {
        tails.remove(series);
      }
    });
  }

  private Long insertPoints(Map<Long, VersionLevel> points, VersionRef version, String statement) {
    if (points.isEmpty()) {
      return null;
    }
    int n = points.size();
    Long[] ids = new Long[n];
    Double[] levels = new Double[n];
    Double[] se = new Double[n];
    Boolean[] positive = new Boolean[n];
    Integer[] counts = new Integer[n];
    int i = 0;
    for (Map.Entry<Long, VersionLevel> e : points.entrySet()) {
      VersionLevel s = e.getValue();
      ids[i] = e.getKey();
      levels[i] = s.level();
      se[i] = Double.isNaN(s.withinSe()) ? null : s.withinSe();
      counts[i] = s.count();
      positive[i++] = s.positive();
    }
    List<Long> stamps = jdbc.sql(statement)
        .params(version.sortKey(), version.id(), ids, levels, se, positive, counts).query(Long.class).list();
    return stamps.isEmpty() ? null : stamps.get(0);
  }

  /**
   * The point of a result that carries only a tool's statistics (no raw samples): its median, or mean, as the
   * level; the standard error of log(level) from its stddev, doubled because a stddev is not robust to the
   * outliers the trimmed mean and MAD of raw samples shrug off; and a count of 0, so that the test treats
   * the spread as unknown-quality (its degrees of freedom come from the prior). Raw samples always win.
   */
  static VersionLevel summaryOnly(int n, double mean, Double median, Double stddev) {
    double level = median == null ? mean : median;
    double se = stddev == null || level <= 0 || n < 2 ? Double.NaN : 2 * stddev / level / Math.sqrt(n);
    return new VersionLevel(level, se, level > 0, 0);
  }

  /** Several summary-only runs of one version: the mean of their levels, the largest standard error. */
  private static VersionLevel pooled(List<VersionLevel> runs) {
    double level = runs.stream().mapToDouble(VersionLevel::level).average().orElseThrow();
    double se = runs.stream().mapToDouble(VersionLevel::withinSe).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    return new VersionLevel(level, se, runs.stream().allMatch(VersionLevel::positive), 0);
  }

  record Meta(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction) {}

  static final String META = """
      SELECT s.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE s.id = ANY(?::bigint[])""";

  private Map<Long, Meta> metas(List<Long> seriesIds) {
    Map<Long, Meta> out = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long id : seriesIds) {
      Meta m = metas.get(id);
      if (m == null) {
        missing.add(id);
      } else {
        out.put(id, m);
      }
    }
    if (!missing.isEmpty()) {
      jdbc.sql(META).param(missing.toArray(Long[]::new)).query(Meta.class).list().forEach(m -> {
        out.put(m.id(), m);
        remember(metas, m.id(), m);
      });
    }
    return out;
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
  record Around(SeriesWindow window, int before, Tail tail, boolean keyTaken, int side, boolean stamped) {}

  private record Row(long series, boolean before, long versionId, VersionLevel summary) {}

  /**
   * The last points of a series, in version order, as they stood at {@code stamp}: every point of the series from
   * the first one here on, and when {@code whole} no point before it either. Immutable.
   */
  record Tail(long stamp, boolean whole, List<VersionRef> versions, List<Point> points, List<Long> ids,
      Tail previous) {

    /** A tail of these points (the versions' ids boxed once: boxing them for each window was 4 % of an upload). */
    static Tail of(long stamp, boolean whole, List<VersionRef> versions, List<Point> points) {
      List<Long> ids = new ArrayList<>(versions.size());
      versions.forEach(v -> ids.add(v.id()));
      return new Tail(stamp, whole, List.copyOf(versions), List.copyOf(points), List.copyOf(ids), null);
    }

    /** This tail if it is the one of this stamp, else the one it was made from if that is (a rolled-back write). */
    Tail at(long seriesStamp) {
      return stamp == seriesStamp ? this : previous != null && previous.stamp == seriesStamp ? previous : null;
    }

    /** Index of the first point at or after this sort key. */
    int at(String sortKey) {
      int lo = 0;
      int hi = versions.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (versions.get(mid).sortKey().compareTo(sortKey) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /** This tail after writing the point of {@code v}, stamped, with at most {@code keep} points. */
    Tail with(VersionRef v, Point p, long newStamp, int keep) {
      int i = at(v.sortKey());
      List<VersionRef> vs = new ArrayList<>(versions.size() + 1);
      List<Point> ps = new ArrayList<>(versions.size() + 1);
      List<Long> is = new ArrayList<>(versions.size() + 1);
      vs.addAll(versions);
      ps.addAll(points);
      is.addAll(ids);
      boolean all = whole;
      if (i < vs.size() && vs.get(i).sortKey().equals(v.sortKey())) {
        // the row at this key is updated in place (its version id stays the one first written there)
        ps.set(i, Point.summarized(vs.get(i).name(), p.summary()));
      } else if (i > 0 || whole) {
        vs.add(i, v);
        ps.add(i, p);
        is.add(i, v.id());
      } // else: before the first point of a partial tail, which stays what it was from its first point on
      if (vs.size() > keep) {
        int drop = vs.size() - keep;
        vs = vs.subList(drop, vs.size());
        ps = ps.subList(drop, ps.size());
        is = is.subList(drop, is.size());
        all = false;
      }
      // the tail it was made from is kept (only one back): if this transaction rolls back, it is still the series'
      return new Tail(newStamp, all, java.util.Collections.unmodifiableList(vs),
          java.util.Collections.unmodifiableList(ps), java.util.Collections.unmodifiableList(is),
          new Tail(stamp, whole, versions, points, ids, null));
    }
  }

  /** Tails kept per series: the window before a new version and a few more (a version or two out of order). */
  private static int tailKeep(int side) {
    return side + 4;
  }

  private static final int TAIL_LIMIT = 20_000;
  private final Map<Long, Tail> tails = new ConcurrentHashMap<>();

  /** Forgets every kept tail (tests: the next windows are read from the points). */
  void forgetTails() {
    tails.clear();
  }

  /** The kept tail of a series, or null. */
  Tail tail(long series) {
    return tails.get(series);
  }

  private void rememberTail(long series, Tail t) {
    if (tails.size() >= TAIL_LIMIT && !tails.containsKey(series)) {
      tails.clear();
    }
    tails.put(series, t);
  }

  /**
   * The change stamps of these series: set by every statement that writes their detection points, to the id of
   * the writing transaction. Read after the series' locks are held, in a statement of its own (its snapshot then
   * sees every commit of a writer that held them).
   */
  static final String STAMPS = "SELECT series_id, stamp FROM detection_stamp WHERE series_id = ANY(?::bigint[])";

  /** The change stamps of these series ({@link #STAMPS}); a series whose points were never written has none. */
  Map<Long, Long> stamps(List<Long> seriesIds) {
    Map<Long, Long> stamps = new HashMap<>();
    jdbc.sql(STAMPS).param(seriesIds.toArray(Long[]::new)).query((ResultSet rs) -> {
      stamps.put(rs.getLong(1), rs.getLong(2));
    });
    return stamps;
  }

  /** Sets the stamps of these series to this transaction's (a writer of points that keeps no tails). */
  static final String STAMP = """
      INSERT INTO detection_stamp (series_id, stamp)
      SELECT DISTINCT id, txid_current() FROM unnest(?::bigint[]) AS s(id)
      ON CONFLICT (series_id) DO UPDATE SET stamp = EXCLUDED.stamp""";

  void stamp(java.util.Collection<Long> seriesIds) {
    if (!seriesIds.isEmpty()) {
      jdbc.sql(STAMP).param(seriesIds.toArray(Long[]::new)).update();
    }
  }

  /** The windows of these series around one version (only series that have points, as detection read them). */
  Map<Long, SeriesWindow> windows(List<Long> seriesIds, long versionId, int side) {
    Map<Long, SeriesWindow> out = new LinkedHashMap<>();
    around(seriesIds, version(versionId), side).forEach((id, a) -> {
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
    Map<Long, Long> stamps = stamps(seriesIds);
    Map<Long, Meta> meta = metas(seriesIds);
    Map<Long, Around> cut = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long series : seriesIds) {
      Tail kept = tails.get(series);
      Long stamp = stamps.get(series);
      Tail t = kept == null || stamp == null ? null : kept.at(stamp);
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
  private static Around cut(Tail t, VersionRef changed, int side, Meta m) {
    int i = t.at(changed.sortKey());
    if (i < side && !t.whole()) {
      return null;
    }
    int from = Math.max(0, i - side);
    int to = Math.min(t.versions().size(), i + side + 1);
    List<Point> points = new ArrayList<>(to - from + 1);
    List<Long> ids = new ArrayList<>(to - from + 1);
    points.addAll(t.points().subList(from, to));
    ids.addAll(t.ids().subList(from, to));
    boolean taken = i < t.versions().size() && t.versions().get(i).sortKey().equals(changed.sortKey());
    return new Around(new SeriesWindow(m.id(), m.product(), m.machine(), m.benchmark(), m.metric(), m.unit(),
        m.direction(), points, new WindowIds(points, ids)), i - from, t, taken, side, true);
  }

  /** The windows of these series read through the index (two range scans per series, one statement). */
  private Map<Long, Around> read(List<Long> seriesIds, VersionRef changed, int side, Map<Long, Meta> meta,
      Map<Long, Long> stamps) {
    Long[] ids = seriesIds.toArray(Long[]::new);
    Map<Long, List<Row>> bySeries = new HashMap<>();
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
      Row row = new Row(series, before, versionId, new VersionLevel(level, se, rs.getBoolean(6), rs.getInt(7)));
      bySeries.computeIfAbsent(series, k -> new ArrayList<>(2 * side + 1)).add(row);
      versionIds.add(versionId);
    });
    Map<Long, VersionRef> names = versions(versionIds);
    Map<Long, Around> out = new LinkedHashMap<>();
    for (Long series : seriesIds) {
      Meta m = meta.get(series);
      List<Row> rows = inVersionOrder(bySeries.getOrDefault(series, List.of()), names);
      List<Point> points = new ArrayList<>(rows.size());
      List<VersionRef> refs = new ArrayList<>(rows.size());
      Map<String, Long> versionOf = new HashMap<>();
      int before = 0;
      for (Row r : rows) {
        VersionRef v = names.get(r.versionId());
        points.add(Point.summarized(v.name(), r.summary()));
        refs.add(v);
        versionOf.put(v.name(), r.versionId());
        if (r.before()) {
          before++;
        }
      }
      // the rows from the version on reached the series' end when fewer than asked for came: then the window is
      // every point from its first on (all of them when fewer than side came before)
      Long stamp = stamps.get(series);
      Tail tail = rows.size() - before <= side
          ? Tail.of(stamp == null ? 0 : stamp, before < side, refs, points) : null;
      boolean taken = before < refs.size() && refs.get(before).sortKey().equals(changed.sortKey());
      out.put(series, new Around(new SeriesWindow(series, m.product(), m.machine(), m.benchmark(), m.metric(),
          m.unit(), m.direction(), points, versionOf), before, tail, taken, side, stamp != null));
    }
    return out;
  }

  /** One series' window rows in version order: the rows before the version came newest first. */
  private static List<Row> inVersionOrder(List<Row> rows, Map<Long, VersionRef> names) {
    int before = 0;
    while (before < rows.size() && rows.get(before).before()) {
      before++;
    }
    java.util.Collections.reverse(rows.subList(0, before));
    for (int i = 1; i < rows.size(); i++) {
      if (names.get(rows.get(i - 1).versionId()).sortKey().compareTo(names.get(rows.get(i).versionId()).sortKey())
          >= 0) {
        rows.sort(java.util.Comparator.comparing((Row r) -> names.get(r.versionId()).sortKey()));
        break;
      }
    }
    return rows;
  }

  /** Whether the window read already holds a point of the changed version (it had runs before this one). */
  static boolean hasPoint(Around a, VersionRef changed) {
    List<Point> points = a.window().points();
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
    List<Point> points = w.points();
    Map<String, Long> versionIds = w.versionIds();
    Point fresh = Point.summarized(changed.name(), point);
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

  static final String PAIR_SAMPLES = """
      SELECT r.series_id, r.version_id, r.samples::text AS samples, r.n, r.mean, r.median, r.stddev
      FROM unnest(?::bigint[], ?::bigint[]) AS k(series_id, version_id)
      JOIN result r ON r.series_id = k.series_id AND r.version_id = k.version_id
      ORDER BY r.series_id, r.version_id, r.run_id""";

  static final String UPSERT_PAIR_POINTS = """
      INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
      SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::float8[], ?::float8[], ?::boolean[], ?::integer[])
      ON CONFLICT (series_id, sort_key) DO UPDATE
      SET level = EXCLUDED.level, within_se = EXCLUDED.within_se, positive = EXCLUDED.positive,
          sample_count = EXCLUDED.sample_count""";

  /** The points of these (series, version) pairs from all their stored runs: one read, one write. */
  void writePoints(java.util.Collection<List<Long>> pairs, Map<Long, VersionRef> versions) {
    if (pairs.isEmpty()) {
      return;
    }
    Long[] series = pairs.stream().map(p -> p.get(0)).toArray(Long[]::new);
    Long[] versionIds = pairs.stream().map(p -> p.get(1)).toArray(Long[]::new);
    Map<List<Long>, List<double[]>> samples = new LinkedHashMap<>();
    Map<List<Long>, List<VersionLevel>> summaries = new HashMap<>();
    jdbc.sql(PAIR_SAMPLES).params(series, versionIds).query((ResultSet rs) -> {
      List<Long> key = List.of(rs.getLong("series_id"), rs.getLong("version_id"));
      double[] values = parse(rs.getString("samples"));
      samples.computeIfAbsent(key, k -> new ArrayList<>()).add(values);
      if (values.length == 0) {
        double median = rs.getDouble("median");
        Double med = rs.wasNull() ? null : median;
        double stddev = rs.getDouble("stddev");
        Double sd = rs.wasNull() ? null : stddev;
        summaries.computeIfAbsent(key, k -> new ArrayList<>()).add(summaryOnly(rs.getInt("n"), rs.getDouble("mean"),
            med, sd));
      }
    });
    int n = samples.size();
    Long[] ids = new Long[n];
    String[] keys = new String[n];
    Long[] vids = new Long[n];
    Double[] levels = new Double[n];
    Double[] se = new Double[n];
    Boolean[] positive = new Boolean[n];
    Integer[] counts = new Integer[n];
    int i = 0;
    for (Map.Entry<List<Long>, List<double[]>> e : samples.entrySet()) {
      double[] all = concat(e.getValue());
      VersionLevel s = all.length > 0 ? VersionLevel.of(all) : pooled(summaries.get(e.getKey()));
      ids[i] = e.getKey().get(0);
      vids[i] = e.getKey().get(1);
      keys[i] = versions.get(vids[i]).sortKey();
      levels[i] = s.level();
      se[i] = Double.isNaN(s.withinSe()) ? null : s.withinSe();
      counts[i] = s.count();
      positive[i++] = s.positive();
    }
    if (n > 0) {
      jdbc.sql(UPSERT_PAIR_POINTS).params(ids, keys, vids, levels, se, positive, counts).update();
      stamp(java.util.Arrays.asList(ids));
    }
  }

  static final String EXISTING_POINTS = """
      SELECT p.series_id, p.version_id FROM unnest(?::bigint[], ?::text[], ?::text[]) AS k(series_id, low, high)
      JOIN detection_point p ON p.series_id = k.series_id AND p.sort_key >= k.low AND p.sort_key <= k.high""";

  /**
   * Writes the points of (series, version) pairs from the values just stored for them, except where the pair has
   * a point already (it had runs before): those are returned, to be read back from all their runs. The series are
   * locked first (as an upload's detection locks them), so no other transaction can add a point of these series
   * before this one commits, and the new points go in with one binary COPY.
   */
  Set<List<Long>> writeNewPoints(Map<List<Long>, List<StoredRun.Values>> values, Map<Long, VersionRef> versions) {
    Set<List<Long>> existing = new java.util.HashSet<>();
    if (values.isEmpty()) {
      return existing;
    }
    lockSeries(values.keySet().stream().map(k -> k.get(0)).distinct().toList());
    // per series one index range over the batch's versions (not one probe per pair: a batch has 20,000 pairs)
    Map<Long, String[]> ranges = new HashMap<>();
    values.keySet().forEach(pair -> {
      String key = versions.get(pair.get(1)).sortKey();
      ranges.merge(pair.get(0), new String[] {key, key}, (a, b) -> new String[] {
          a[0].compareTo(b[0]) <= 0 ? a[0] : b[0], a[1].compareTo(b[1]) >= 0 ? a[1] : b[1]});
    });
    Long[] series = ranges.keySet().toArray(Long[]::new);
    String[] lows = new String[series.length];
    String[] highs = new String[series.length];
    for (int i = 0; i < series.length; i++) {
      lows[i] = ranges.get(series[i])[0];
      highs[i] = ranges.get(series[i])[1];
    }
    jdbc.sql(EXISTING_POINTS).params(series, lows, highs).query((ResultSet rs) -> {
      List<Long> pair = List.of(rs.getLong(1), rs.getLong(2));
      if (values.containsKey(pair)) {
        existing.add(pair);
      }
    });
    // the rows go to PostgreSQL while the next ones are summarised (one chunk in memory)
    java.sql.Connection con = org.springframework.jdbc.datasource.DataSourceUtils.getConnection(dataSource);
    org.perftrack.server.db.BinaryCopy rows = null;
    try {
      rows = org.perftrack.server.db.BinaryCopy.streaming(con, COPY_POINTS);
      // in index order (series, then version order): each leaf page of the key is filled in one visit, not revisited
      // by every version of a batch (a batch holds versions × series in run order)
      List<Map.Entry<List<Long>, List<StoredRun.Values>>> inOrder = new ArrayList<>(values.entrySet());
      inOrder.sort(Map.Entry.<List<Long>, List<StoredRun.Values>>comparingByKey(java.util.Comparator
          .<List<Long>>comparingLong(pair -> pair.get(0)).thenComparing(pair -> versions.get(pair.get(1)).sortKey())));
      for (Map.Entry<List<Long>, List<StoredRun.Values>> e : inOrder) {
        List<Long> pair = e.getKey();
        if (existing.contains(pair)) {
          continue;
        }
        VersionLevel s = pointOfRuns(e.getValue());
        rows.row(7).int8(pair.get(0)).text(versions.get(pair.get(1)).sortKey()).int8(pair.get(1)).float8(s.level())
            .float8OrNull(s.withinSe()).bool(s.positive()).integer(s.count());
      }
      rows.finish();
    } catch (SQLException | RuntimeException e) {
      if (rows != null) {
        rows.cancel();
      }
      throw new IllegalStateException("COPY of detection points failed", e);
    } finally {
      org.springframework.jdbc.datasource.DataSourceUtils.releaseConnection(con, dataSource);
    }
    if (rows.rows() > 0) {
      stamp(ranges.keySet()); // the series' kept tails are stale now
    }
    return existing;
  }

  /** The point of one (series, version) from the values of its runs. */
  private static VersionLevel pointOfRuns(List<StoredRun.Values> runs) {
    if (runs.size() == 1 && runs.get(0).samples().length > 0) {
      return VersionLevel.of(runs.get(0).samples());
    }
    List<double[]> samples = new ArrayList<>();
    List<VersionLevel> summaries = new ArrayList<>();
    for (StoredRun.Values v : runs) {
      if (v.samples().length > 0) {
        samples.add(v.samples());
      } else {
        summaries.add(pointOf(v));
      }
    }
    return samples.isEmpty() ? pooled(summaries) : VersionLevel.of(concat(samples));
  }

  static final String COPY_POINTS = "COPY detection_point (series_id, sort_key, version_id, level, within_se, positive,"
      + " sample_count) FROM STDIN (FORMAT binary)";

  /** Fills the cache of series metadata for these series (one query for those it lacks). */
  void prefetchMeta(List<Long> seriesIds) {
    metas(seriesIds);
  }

  /** One point of a series as read for an import's detection. */
  record Loaded(VersionRef version, Point point) {}

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
    List<Row> rows = new ArrayList<>();
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
          rows.add(new Row(rs.getLong(1), false, rs.getLong(2),
              new VersionLevel(rs.getDouble(3), se, rs.getBoolean(5), rs.getInt(6))));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading the series' points for an import failed", e);
    } finally {
      org.springframework.jdbc.datasource.DataSourceUtils.releaseConnection(con, dataSource);
    }
    Map<Long, VersionRef> names = versions(rows.stream().map(Row::versionId).distinct().toList());
    Map<Long, List<Loaded>> out = new HashMap<>();
    for (Row r : rows) {
      VersionRef v = names.get(r.versionId());
      out.computeIfAbsent(r.series(), k -> new ArrayList<>()).add(new Loaded(v, Point.summarized(v.name(), r.summary())));
    }
    return out;
  }

  /** A series' window made of points read before (an import builds 100,000 of them: nothing is copied twice). */
  SeriesWindow window(long seriesId, List<Loaded> points) {
    Meta m = metas.get(seriesId);
    if (m == null) {
      m = metas(List.of(seriesId)).get(seriesId);
    }
    List<Point> list = new ArrayList<>(points.size());
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

  static final String BATCH_RUNS_OF_BATCH = """
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM run ru JOIN result r ON r.run_id = ru.id JOIN version v ON v.id = r.version_id
      WHERE ru.batch = ? AND r.series_id = ANY(?::bigint[])
      ORDER BY r.series_id, ru.received_at, ru.id""";

  /** The runs of one interleaved session (batch) in these series, with their raw samples in round order. */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, java.util.UUID batch) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (batch == null || seriesIds.isEmpty()) {
      return out;
    }
    jdbc.sql(BATCH_RUNS_OF_BATCH).params(batch, seriesIds.toArray(Long[]::new)).query((ResultSet rs) -> {
      out.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(batchRun(rs));
    });
    return out;
  }

  static final String BATCH_RUNS_OF_VERSIONS = """
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM result r JOIN run ru ON ru.id = r.run_id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[]) AND r.version_id = ANY(?::bigint[]) AND ru.batch IS NOT NULL
      ORDER BY r.series_id, ru.received_at, ru.id""";

  /**
   * Every interleaved run of these versions in these series: what detection reads when a step was seen,
   * so that the interleaved sessions of the whole window can confirm or veto it.
   */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, List<Long> versionIds) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (seriesIds.isEmpty() || versionIds.isEmpty()) {
      return out;
    }
    jdbc.sql(BATCH_RUNS_OF_VERSIONS).params(seriesIds.toArray(Long[]::new), versionIds.toArray(Long[]::new))
        .query((ResultSet rs) -> {
          out.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(batchRun(rs));
        });
    return out;
  }

  private static BatchRun batchRun(ResultSet rs) throws SQLException {
    return new BatchRun(rs.getString("batch"), rs.getString("version"), parse(rs.getString("samples")));
  }

  static double[] concat(List<double[]> arrays) {
    return arrays.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
  }

  /**
   * Parses PostgreSQL's text form of a float8[] ({@code {18.1,17.9}}): several times faster than
   * the driver's generic array, which boxes every element, and the window holds thousands.
   */
  static double[] parse(String text) {
    String body = text.substring(1, text.length() - 1);
    if (body.isEmpty()) {
      return new double[0];
    }
    int n = 1;
    for (int i = 0; i < body.length(); i++) {
      n += body.charAt(i) == ',' ? 1 : 0;
    }
    double[] out = new double[n];
    int start = 0;
    for (int i = 0; i < n; i++) {
      int end = body.indexOf(',', start);
      out[i] = Double.parseDouble(body.substring(start, end < 0 ? body.length() : end));
      start = end + 1;
    }
    return out;
  }

}
