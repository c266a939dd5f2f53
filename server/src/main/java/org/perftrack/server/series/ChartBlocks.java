package org.perftrack.server.series;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perftrack.server.detection.DetectionService;
import org.perftrack.server.detection.PointReads;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The buckets of a long chart, from kept summaries (V30): the range is cut at the version boundaries of the finest
 * block level that gives at most {@code maxPoints} blocks ({@code chart_boundary}), and each shown series' summary
 * of each complete block is read from {@code chart_summary}, computed from the detection points the first time it
 * is needed and kept until a point written into the block drops it. The whole-history chart's summaries are kept
 * ahead of its first view, in the background ({@link ChartSummaryKeeper}). Only the blocks at the range's two ends that
 * it covers in part (the newest, still open, among them) are read from the points every time. So a chart of the
 * whole history reads about {@code maxPoints} rows per series and a few blocks of points, with 200 versions or
 * 200,000.
 *
 * <p>A summary is kept only if no writer of its series can have changed the points it was computed from: the series'
 * change stamps ({@code detection_stamp}, set by every writer of points in the transaction that writes them) are
 * read before the points are summarised and again, after that, in a short transaction that takes a shared advisory
 * lock on each series without waiting; the summaries of a series are kept when its lock was free and its stamp
 * unchanged. Every writer holds the series' exclusive lock from before it writes points to its commit
 * ({@code SeriesLocks.lockSeries}), so a writer that started after the check waits for the summaries to be
 * committed and its trigger (V30) then drops those of the blocks it writes into. The points are read outside the
 * lock: a chart being drawn never holds up an upload for longer than the insert of its summaries.
 *
 * <p>Size: {@code aggregates} (about 55 lines) reads kept blocks and computes the missing ones in one pass over the
 * segments, so each point is read once.
 */
@Service
class ChartBlocks {

  /** Block levels: a level-L block holds 2^(L+1) versions on average (V30). */
  static final int LEVELS = 20;

  /** One series' aggregate of one stretch of versions, with the sort keys of its first and last point there. */
  record Agg(int n, double median, double lo, double hi, String firstPoint, String lastPoint) {}

  /** A stretch [first, end) of the range; {@code kept}: a complete block, its summaries kept. */
  record Segment(String first, String end, boolean kept) {}

  /** The range cut into segments, with each series' aggregate of each (absent: no point there). */
  record Cut(int level, List<Segment> segments, Map<Long, Agg[]> bySeries) {}

  /**
   * The database's order of sort keys (COLLATE "C": UTF-8 bytes, the same as code points), which
   * {@link String#compareTo} (UTF-16 units) is not once a key holds characters beyond U+FFFF.
   */
  static int compareKeys(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  static final String VERSION_COUNT = "SELECT version_count FROM product WHERE id = ?";

  static final String BOUNDARIES = """
      SELECT sort_key FROM chart_boundary
      WHERE product_id = ? AND level = ? AND sort_key >= ? AND sort_key <= ?
      ORDER BY sort_key LIMIT ?""";

  static final String KEPT = """
      SELECT series_id, first_key, next_key, n, median, lo, hi, first_point, last_point FROM chart_summary
      WHERE series_id = ANY (?::bigint[]) AND level = ? AND first_key >= ? AND first_key <= ?""";

  static final String LOCK = """
      SELECT s.id FROM unnest(?::bigint[]) AS s(id) WHERE pg_try_advisory_xact_lock_shared(s.id)""";

  static final String KEEP = """
      INSERT INTO chart_summary (series_id, level, first_key, next_key, n, median, lo, hi, first_point, last_point)
      SELECT u.series_id, ?, u.first_key, u.next_key, u.n, u.median, u.lo, u.hi, u.first_point, u.last_point
      FROM unnest(?::bigint[], ?::text[], ?::text[], ?::integer[], ?::float8[], ?::float8[], ?::float8[], ?::text[],
                  ?::text[]) AS u(series_id, first_key, next_key, n, median, lo, hi, first_point, last_point)
      ON CONFLICT (series_id, level, first_key) DO UPDATE
      SET next_key = EXCLUDED.next_key, n = EXCLUDED.n, median = EXCLUDED.median, lo = EXCLUDED.lo,
          hi = EXCLUDED.hi, first_point = EXCLUDED.first_point, last_point = EXCLUDED.last_point""";

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ChartBlocks.class);

  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final DetectionService detection;
  private final PointReads pointReads;

  ChartBlocks(JdbcClient jdbc, TransactionTemplate tx, DetectionService detection, PointReads pointReads) {
    this.jdbc = jdbc;
    this.pointReads = pointReads;
    this.tx = tx;
    this.detection = detection;
  }

  /**
   * The range [lo, hi] (sort keys; "" and {@link ChartPoints#HIGHEST} for open ends) of these series, cut into at
   * most {@code maxPoints} segments: at the boundaries of the finest level with fewer than {@code maxPoints} of them
   * in the range (one segment more than boundaries at most: the part before the first).
   */
  Cut cut(long productId, List<Long> seriesIds, String lo, String hi, int maxPoints) {
    Cut cut = cutAt(productId, lo, hi, maxPoints);
    return new Cut(cut.level(), cut.segments(), aggregates(seriesIds, cut.level(), cut.segments(), false));
  }

  /**
   * Keeps the summaries these series lack of the complete blocks of their whole-history chart (what the chart's
   * first view would summarise and keep), reading no points of the blocks that are kept already or still open.
   * Returns how many (series, block) summaries it computed; a series a writer holds at that moment is skipped.
   */
  int keepWholeHistory(long productId, List<Long> seriesIds, int maxPoints) {
    Cut cut = cutAt(productId, "", ChartPoints.HIGHEST, maxPoints);
    int[] computed = {0};
    for (Long series : seriesIds) {
      // one series at a time, read under its shared lock (taken without waiting; a series being written is left for
      // the next time): no writer can change its points meanwhile, so what is read is kept, however busy the series
      // is; a writer waits at most for the read of one series' missing blocks
      tx.executeWithoutResult(status -> {
        if (!jdbc.sql(LOCK).param(new Long[] {series}).query(Long.class).list().isEmpty()) {
          aggregates(List.of(series), cut.level(), cut.segments(), true, computed);
        }
      });
    }
    return computed[0];
  }

  /** The level and segments of a cut, without aggregates. */
  private Cut cutAt(long productId, String lo, String hi, int maxPoints) {
    int most = Math.max(1, maxPoints - 1);
    int level = startLevel(productId, most);
    List<String> bounds = boundaries(productId, level, lo, hi, most);
    while (bounds.size() > most && level < LEVELS - 1) {
      bounds = boundaries(productId, ++level, lo, hi, most);
    }
    while (level > 0) {
      List<String> finer = boundaries(productId, level - 1, lo, hi, most);
      if (finer.size() > most) {
        break;
      }
      level--;
      bounds = finer;
    }
    return new Cut(level, segments(lo, hi, bounds), Map.of());
  }

  /** The finest level whose blocks the product as a whole has about {@code maxPoints} of, or fewer. */
  private int startLevel(long productId, int maxPoints) {
    long versions = jdbc.sql(VERSION_COUNT).param(productId).query(Long.class).optional().orElse(0L);
    int level = 0;
    while (level < LEVELS - 1 && versions >> (level + 1) > maxPoints) {
      level++;
    }
    return level;
  }

  private List<String> boundaries(long productId, int level, String lo, String hi, int maxPoints) {
    return jdbc.sql(BOUNDARIES).params(productId, level, lo, hi, maxPoints + 1).query(String.class).list();
  }

  /**
   * The segments: from each boundary to the next, kept; the part before the first boundary (unless the range
   * opens at the start of the history, which begins a block at every level) and the part from the last boundary
   * to {@code hi} (the newest block is still open; a range may end inside a block), read from the points.
   */
  static List<Segment> segments(String lo, String hi, List<String> bounds) {
    List<String> starts = new ArrayList<>();
    if (bounds.isEmpty() || !bounds.get(0).equals(lo)) {
      starts.add(lo);
    }
    starts.addAll(bounds);
    String end = ChartPoints.HIGHEST.equals(hi) ? hi : hi + "\u0001"; // the first key above hi ("C" order)
    List<Segment> segments = new ArrayList<>(starts.size());
    for (int i = 0; i < starts.size(); i++) {
      boolean last = i == starts.size() - 1;
      boolean whole = i > 0 || lo.isEmpty() || (!bounds.isEmpty() && bounds.get(0).equals(lo));
      segments.add(new Segment(starts.get(i), last ? end : starts.get(i + 1), whole && !last));
    }
    return segments;
  }

  private Map<Long, Agg[]> aggregates(List<Long> seriesIds, int level, List<Segment> segments, boolean keptOnly) {
    return aggregates(seriesIds, level, segments, keptOnly, new int[1]);
  }

  /**
   * Each series' aggregate of each segment: kept summaries where they are, the rest from the points (those of
   * complete blocks then kept). {@code keptOnly}: only the complete blocks (the others are left absent).
   * {@code computed[0]} counts the aggregates read from the points.
   */
  private Map<Long, Agg[]> aggregates(List<Long> seriesIds, int level, List<Segment> segments, boolean keptOnly,
      int[] computed) {
    int n = segments.size();
    Map<Long, Agg[]> out = new HashMap<>();
    seriesIds.forEach(id -> out.put(id, new Agg[n]));
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < n; i++) {
      at.put(segments.get(i).first(), i);
    }
    Set<List<Object>> found = new HashSet<>();
    jdbc.sql(KEPT).params(seriesIds.toArray(Long[]::new), level, segments.get(0).first(),
        segments.get(n - 1).first()).query((ResultSet rs) -> {
          Integer i = at.get(rs.getString("first_key"));
          if (i == null || !segments.get(i).kept() || !segments.get(i).end().equals(rs.getString("next_key"))) {
            return; // a block since split by a new boundary: summarised again below
          }
          long series = rs.getLong("series_id");
          found.add(List.of(series, i));
          int count = rs.getInt("n");
          out.get(series)[i] = count == 0 ? null : new Agg(count, rs.getDouble("median"), rs.getDouble("lo"),
              rs.getDouble("hi"), rs.getString("first_point"), rs.getString("last_point"));
        });
    List<Long> missingSeries = new ArrayList<>();
    List<Integer> missingAt = new ArrayList<>();
    for (Long series : seriesIds) {
      for (int i = 0; i < n; i++) {
        if (!found.contains(List.of(series, i)) && (!keptOnly || segments.get(i).kept())) {
          missingSeries.add(series);
          missingAt.add(i);
        }
      }
    }
    if (missingSeries.isEmpty()) {
      return out;
    }
    computed[0] += missingSeries.size();
    boolean keeps = missingAt.stream().anyMatch(i -> segments.get(i).kept());
    Map<Long, Long> before = keeps ? detection.changeStamps(seriesIds) : Map.of();
    read(missingSeries, missingAt, segments, out);
    if (keeps) {
      try {
        tx.executeWithoutResult(status -> {
          Set<Long> locked = new HashSet<>(jdbc.sql(LOCK).param(seriesIds.toArray(Long[]::new)).query(Long.class).list());
          Map<Long, Long> now = detection.changeStamps(seriesIds);
          locked.removeIf(id -> !java.util.Objects.equals(before.get(id), now.get(id)));
          keep(level, missingSeries, missingAt, segments, out, locked);
        });
      } catch (org.springframework.dao.DataAccessException | org.springframework.transaction.TransactionException e) {
        // a database that cannot keep them (a read-only replica serving the pages): summarised, not kept
        log.debug("chart summaries not kept: {}", e.getMessage());
      }
    }
    return out;
  }

  /** Aggregates the missing (series, segment) pairs from the detection points into {@code out}. */
  private void read(List<Long> series, List<Integer> at, List<Segment> segments, Map<Long, Agg[]> out) {
    int m = series.size();
    String[] firsts = new String[m];
    String[] stops = new String[m];
    for (int k = 0; k < m; k++) {
      firsts[k] = segments.get(at.get(k)).first();
      stops[k] = segments.get(at.get(k)).end();
    }
    for (PointReads.Span x : pointReads.spans(series.toArray(Long[]::new), firsts, stops)) {
      int k = x.at();
      out.get(series.get(k))[at.get(k)] = x.n() == 0 ? null
          : new Agg(x.n(), x.median(), x.lo(), x.hi(), x.firstPoint(), x.lastPoint());
    }
  }

  /** Keeps the summaries of the complete blocks just read, for the series whose shared lock this transaction holds. */
  private void keep(int level, List<Long> series, List<Integer> at, List<Segment> segments, Map<Long, Agg[]> out,
      Set<Long> locked) {
    List<Integer> rows = new ArrayList<>();
    for (int k = 0; k < series.size(); k++) {
      if (segments.get(at.get(k)).kept() && locked.contains(series.get(k))) {
        rows.add(k);
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    int m = rows.size();
    Long[] ids = new Long[m];
    String[] firsts = new String[m];
    String[] nexts = new String[m];
    Integer[] counts = new Integer[m];
    Double[] medians = new Double[m];
    Double[] los = new Double[m];
    Double[] his = new Double[m];
    String[] firstPoints = new String[m];
    String[] lastPoints = new String[m];
    for (int j = 0; j < m; j++) {
      int k = rows.get(j);
      Segment s = segments.get(at.get(k));
      Agg a = out.get(series.get(k))[at.get(k)];
      ids[j] = series.get(k);
      firsts[j] = s.first();
      nexts[j] = s.end();
      counts[j] = a == null ? 0 : a.n();
      medians[j] = a == null ? null : a.median();
      los[j] = a == null ? null : a.lo();
      his[j] = a == null ? null : a.hi();
      firstPoints[j] = a == null ? null : a.firstPoint();
      lastPoints[j] = a == null ? null : a.lastPoint();
    }
    jdbc.sql(KEEP).params(level, ids, firsts, nexts, counts, medians, los, his, firstPoints, lastPoints).update();
  }
}
