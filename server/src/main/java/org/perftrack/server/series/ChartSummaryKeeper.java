package org.perftrack.server.series;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.perftrack.server.background.BackgroundThread;
import org.perftrack.server.detection.PointsWritten;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Keeps the summaries of every series' whole-history chart ({@link ChartBlocks}) ready, so that the chart's first
 * view reads kept summaries instead of every point of the history. In the background, never in an upload's
 * request: some seconds after points are written (uploads, imports and re-judging publish {@link PointsWritten}
 * when they commit) it summarises the complete blocks the written series lack (a new version that closes a block,
 * a block an import wrote into); at start-up it does so for every series that has no summary at all (a database
 * restored, upgraded or bulk-loaded). Writes that arrive meanwhile are gathered and handled together. Only products
 * with a long history ({@link #KEEP_FROM_VERSIONS}) are looked at; the others' charts keep their summaries at their
 * first view, as before.
 */
@Component
class ChartSummaryKeeper extends BackgroundThread {

  private static final Logger log = LoggerFactory.getLogger(ChartSummaryKeeper.class);

  /** How long after a write its series are looked at: writes within it are handled together. */
  static final long SETTLE_MILLIS = 10_000;

  /**
   * Products with at least this many versions have their charts' summaries kept ahead of views. A shorter history
   * is charted from blocks so small (a few versions each) that keeping them costs about as much as the points
   * themselves at every upload, while a first view reads at most this many points a series, which is quick.
   */
  static final int KEEP_FROM_VERSIONS = 4000;
  /** Series summarised together (as many as a chart over all machines of a busy product shows). */
  static final int CHUNK = 20;

  /** Each series with its product, where the product has more versions than the parameter. */
  static final String PRODUCTS = """
      SELECT s.id, s.product_id FROM series s JOIN product p ON p.id = s.product_id
      WHERE s.id = ANY (?::bigint[]) AND p.deletion_id IS NULL AND p.version_count > ?
      ORDER BY s.product_id, s.id""";

  /** The series of such products with no kept summary at all. */
  static final String UNSUMMARISED = """
      SELECT s.id, s.product_id FROM series s JOIN product p ON p.id = s.product_id
      WHERE p.deletion_id IS NULL AND p.version_count > ?
        AND NOT EXISTS (SELECT 1 FROM chart_summary c WHERE c.series_id = s.id)
      ORDER BY s.product_id, s.id""";

  private final ChartBlocks blocks;
  private final JdbcClient jdbc;
  private final Set<Long> written = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean due = new AtomicBoolean();
  /** {@link #KEEP_FROM_VERSIONS}; tests lower it to keep summaries of a short history. */
  volatile int keepFrom = KEEP_FROM_VERSIONS;

  ChartSummaryKeeper(ChartBlocks blocks, JdbcClient jdbc) {
    super("perftrack-chart-summaries", Thread.MIN_PRIORITY);
    this.blocks = blocks;
    this.jdbc = jdbc;
  }

  @TransactionalEventListener(fallbackExecution = true)
  void onPointsWritten(PointsWritten event) {
    written.addAll(event.seriesIds());
    ScheduledExecutorService e = executor();
    if (e != null && due.compareAndSet(false, true)) {
      e.schedule(this::keepWritten, SETTLE_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Keeps what the series written since the last call lack. */
  void keepWritten() {
    due.set(false);
    List<Long> ids = new ArrayList<>(written);
    written.removeAll(ids);
    try {
      if (!ids.isEmpty()) {
        keep(byProduct(jdbc.sql(PRODUCTS).params(ids.toArray(Long[]::new), Math.max(keepFrom, ChartPoints.MAX_POINTS)
            - 1)), false);
      }
    } catch (RuntimeException e) { // the chart's first view summarises what is missing; nothing is lost
      log.warn("keeping chart summaries of {} written series failed: {}", ids.size(), e.toString());
    }
  }

  /** Keeps the summaries of every series that has none; returns how many series it looked at. */
  int keepUnsummarised() {
    return keep(byProduct(jdbc.sql(UNSUMMARISED).param(Math.max(keepFrom, ChartPoints.MAX_POINTS) - 1)), true);
  }

  private static Map<Long, List<Long>> byProduct(JdbcClient.StatementSpec query) {
    Map<Long, List<Long>> out = new LinkedHashMap<>();
    query.query((rs, i) -> out.computeIfAbsent(rs.getLong(2), k -> new ArrayList<>()).add(rs.getLong(1))).list();
    return out;
  }

  private int keep(Map<Long, List<Long>> byProduct, boolean report) {
    long start = System.nanoTime();
    int series = 0;
    int computed = 0;
    for (Map.Entry<Long, List<Long>> e : byProduct.entrySet()) {
      List<Long> ids = e.getValue();
      for (int i = 0; i < ids.size(); i += CHUNK) {
        if (Thread.currentThread().isInterrupted()) {
          return series;
        }
        List<Long> chunk = ids.subList(i, Math.min(ids.size(), i + CHUNK));
        try {
          computed += blocks.keepWholeHistory(e.getKey(), chunk, ChartPoints.MAX_POINTS);
        } catch (RuntimeException ex) { // the chart's first view summarises what is missing; nothing is lost
          log.warn("keeping chart summaries of product {} failed: {}", e.getKey(), ex.toString());
        }
        series += chunk.size();
      }
    }
    log.debug("kept chart summaries: {} series looked at, {} blocks summarised, {} ms", series, computed,
        (System.nanoTime() - start) / 1_000_000);
    if (report && series > 0) {
      log.info("summarised the whole-history charts of {} series ({} blocks) in {} s", series, computed,
          String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9));
    }
    return series;
  }

  @Override
  protected void started(ScheduledExecutorService executor) {
    executor.execute(() -> {
      try {
        keepUnsummarised();
      } catch (RuntimeException e) {
        log.warn("keeping chart summaries at start-up failed (charts summarise at their first view): {}", e.toString());
      }
    });
  }
}
