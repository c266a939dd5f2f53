package org.perftrack.server.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The whole-history chart's summaries are kept before anyone views it: after an import (in the background, once it
 * committed) and, for series that have none, at start-up; its first view then computes nothing from the points.
 */
class ChartSummaryKeeperTest extends IntegrationTest {

  /** More versions than a chart shows unbucketed. */
  private static final List<String> VERSIONS = IntStream.range(0, ChartPoints.MAX_POINTS + 60)
      .mapToObj(i -> "3." + i).toList();

  @Autowired
  ChartSummaryKeeper keeper;
  @Autowired
  ChartBlocks blocks;
  @Autowired
  SeriesChart charts;

  @Test
  void anImportedHistoryIsSummarisedWithoutAViewAndAgainAtStartUpWhenItsSummariesAreGone() throws Exception {
    keeper.keepFrom = ChartPoints.MAX_POINTS; // a short history stands for a long one
    try {
      importAndCheck();
    } finally {
      keeper.keepFrom = ChartSummaryKeeper.KEEP_FROM_VERSIONS;
    }
  }

  private void importAndCheck() throws Exception {
    String product = unique("cygwin");
    String lines = VERSIONS.stream().flatMap(v -> java.util.stream.Stream.of("xp", "vista").map(m ->
        json(run(product, v, m + "-" + product, result("fork", 10 + v.length(), 11, 12)))))
        .collect(Collectors.joining("\n"));
    assertThat(http().postBytes("/api/v1/runs:import", lines.getBytes(StandardCharsets.UTF_8),
        "application/x-ndjson", TOKEN).status()).isEqualTo(200);
    long productId = jdbc.sql("SELECT id FROM product WHERE name = ?").param(product).query(Long.class).single();
    List<Long> series = jdbc.sql("SELECT id FROM series WHERE product_id = ? ORDER BY id").param(productId)
        .query(Long.class).list();
    assertThat(series).hasSize(2);

    long kept = awaitKept(series);
    assertThat(kept).as("summaries of both series' complete blocks").isGreaterThan(2);
    assertThat(blocks.keepWholeHistory(productId, series, ChartPoints.MAX_POINTS))
        .as("nothing left to summarise").isZero();
    charts.chart(product, "fork", "time-per-op", null, null, null, 0, ChartPoints.MAX_POINTS).orElseThrow();
    assertThat(kept(series)).as("the chart's first view kept nothing more").isEqualTo(kept);

    jdbc.sql("DELETE FROM chart_summary WHERE series_id = ANY(?)").param(series.toArray(Long[]::new)).update();
    assertThat(keeper.keepUnsummarised()).as("series looked at").isGreaterThanOrEqualTo(2);
    assertThat(kept(series)).isEqualTo(kept);
  }

  /**
   * Waits (generously: the machine may be loaded) until the background keeper has kept summaries of every series
   * (it keeps those of one product's series in one transaction).
   */
  private long awaitKept(List<Long> series) throws InterruptedException {
    for (int i = 0; i < 1800; i++) {
      if (series.stream().allMatch(s -> kept(List.of(s)) > 0)) {
        return kept(series);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no chart summaries kept within three minutes of the import");
  }

  private long kept(List<Long> series) {
    return jdbc.sql("SELECT count(*) FROM chart_summary WHERE series_id = ANY(?)").param(series.toArray(Long[]::new))
        .query(Long.class).single();
  }
}
