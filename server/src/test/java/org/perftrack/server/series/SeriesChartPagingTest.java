package org.perftrack.server.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The series page at scale, shrunk: a chart of more versions than it shows is sent as buckets (median,
 * lowest, highest of the versions' levels), a zoomed range as every point, and the table in pages.
 * The limits are parameters, so twelve versions stand for two thousand.
 */
class SeriesChartPagingTest extends IntegrationTest {

  private static final List<String> VERSIONS = IntStream.range(0, 12).mapToObj(i -> "1." + i).toList();

  @Autowired
  SeriesChart charts;

  private String product;
  private String xp;
  private String vista;

  @BeforeEach
  void twelveVersionsOnTwoMachines() {
    product = unique("cygwin");
    xp = unique("xp");
    vista = unique("vista");
    for (int i = 0; i < VERSIONS.size(); i++) {
      double x = i < 6 ? 10 : 20; // a step at 1.6 on xp
      upload(run(product, VERSIONS.get(i), xp, result("fork", x, x, x)));
      upload(run(product, VERSIONS.get(i), vista, result("fork", 30 + i, 30 + i, 30 + i)));
    }
  }

  @Test
  void moreVersionsThanPointsAreSentAsBucketsOfMedianLowestAndHighest() {
    ChartPoints.Chart chart = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();

    assertThat(chart.versions()).hasSizeBetween(2, 4);
    assertThat(chart.total()).isEqualTo(12);
    assertThat(chart.bucket()).isGreaterThan(1);
    assertBucketsSummarise(chart, VERSIONS);
    assertThat(Arrays.stream(machine(chart, vista).samples()).mapToInt(s -> s.length).sum()).isZero();
  }

  @Test
  void aZoomedRangeTooLongForEveryPointIsBucketedFromItsFirstToItsLastVersion() {
    for (int round = 0; round < 2; round++) { // the second time from kept summaries
      ChartPoints.Chart chart = charts.chart(product, "fork", "time-per-op", null, "1.1", "1.10", 0, 4).orElseThrow();

      assertThat(chart.versions()).hasSizeBetween(2, 4);
      assertThat(chart.total()).isEqualTo(10);
      assertBucketsSummarise(chart, VERSIONS.subList(1, 11));
    }
  }

  @Test
  void keptBlockSummariesAreReusedAndAPointWrittenIntoABlockReplacesItsSummary() {
    ChartPoints.Chart before = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();
    long kept = keptSummaries(vista);
    assertThat(kept).as("complete blocks are kept after the first chart").isPositive();

    assertThat(charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow())
        .as("the second chart, from the kept summaries, is the same").usingRecursiveComparison().isEqualTo(before);
    // a second run of the oldest version: its point moves, so the summary of the block it is in goes
    upload(run(product, VERSIONS.get(0), vista, result("fork", 1000, 1000, 1000)));
    assertThat(keptSummaries(vista)).isEqualTo(kept - 1);
    ChartPoints.Chart after = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();

    assertThat(machine(after, vista).max()[0]).isGreaterThan(100.0);
    assertBucketsSummarise(after, VERSIONS);
    assertThat(keptSummaries(vista)).isEqualTo(kept);
  }

  @Test
  void aSeriesBeingWrittenIsChartedButItsSummariesAreNotKept(@Autowired javax.sql.DataSource dataSource)
      throws Exception {
    long vistaSeries = jdbc.sql("""
        SELECT s.id FROM series s JOIN machine m ON m.id = s.machine_id WHERE m.name = ? AND s.benchmark = 'fork'""")
        .param(vista).query(Long.class).single();
    try (java.sql.Connection writer = dataSource.getConnection()) {
      writer.setAutoCommit(false); // a writer of points holds its series' lock until it commits
      try (var lock = writer.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        lock.setLong(1, vistaSeries);
        lock.execute();
      }
      ChartPoints.Chart chart = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();

      assertBucketsSummarise(chart, VERSIONS);
      assertThat(keptSummaries(vista)).isZero();
      assertThat(keptSummaries(xp)).isPositive();
      writer.rollback();
    }
    charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();
    assertThat(keptSummaries(vista)).isPositive();
  }

  @Test
  void anImportIntoKeptBlocksDropsTheirSummaries() {
    charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();
    long kept = keptSummaries(xp);
    String lines = java.util.stream.Stream.of("1.1", "1.2").map(v -> json(run(product, v, xp, result("fork", 500, 500, 500))))
        .collect(java.util.stream.Collectors.joining("\n"));

    Http.Response imported = http().postBytes("/api/v1/runs:import", lines.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "application/x-ndjson", TOKEN);

    assertThat(imported.status()).isEqualTo(200);
    assertThat(keptSummaries(xp)).isLessThan(kept);
    ChartPoints.Chart after = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();
    assertThat(machine(after, xp).max()[0]).isGreaterThan(100.0);
    assertBucketsSummarise(after, VERSIONS);
  }

  @Test
  void aVersionImportedIntoTheMiddleThatStartsABlockSplitsOnlyThatBlock() {
    charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();
    // a version between 1.4 and 1.5 that starts a block at every level the chart may use
    String middle = IntStream.range(0, 10_000).mapToObj(i -> "1.4." + i)
        .filter(v -> jdbc.sql("SELECT chart_block_levels(?)").param(org.perftrack.wire.VersionKey.of(v))
            .query(Integer.class).single() >= 4)
        .findFirst().orElseThrow();
    upload(run(product, middle, xp, result("fork", 15, 15, 15)));

    ChartPoints.Chart chart = charts.chart(product, "fork", "time-per-op", null, null, null, 0, 4).orElseThrow();

    List<String> all = new java.util.ArrayList<>(VERSIONS.subList(0, 5));
    all.add(middle);
    all.addAll(VERSIONS.subList(5, VERSIONS.size()));
    assertThat(chart.total()).isEqualTo(13);
    assertThat(chart.versions()).contains(middle);
    assertBucketsSummarise(chart, all);
  }

  @Test
  void aZoomedRangeShortEnoughGetsEveryVersionWithItsSamples() {
    ChartPoints.Chart chart = charts.chart(product, "fork", "time-per-op", null, "1.3", "1.6", 0, 4).orElseThrow();

    assertThat(chart.bucket()).isEqualTo(1);
    assertThat(chart.last()).isNull();
    assertThat(chart.versions()).containsExactly("1.3", "1.4", "1.5", "1.6");
    assertThat(machine(chart, xp).median()).containsExactly(10.0, 10.0, 10.0, 20.0);
    assertThat(machine(chart, xp).samples()[3]).containsExactly(20.0, 20.0, 20.0);
  }

  @Test
  void theChartJsonOffersTheNewestVersionsAndRefusesUnknownOnes() {
    String path = "/products/" + product + "/series/chart?benchmark=fork&metric=time-per-op";

    Http.Response last = http().get(path + "&last=2");
    Http.Response unknown = http().get(path + "&from=9.9");
    Http.Response negative = http().get(path + "&last=-1");

    assertThat(last.status()).isEqualTo(200);
    assertThat(last.json().get("versions").toString()).isEqualTo("[\"1.10\",\"1.11\"]");
    assertThat(last.json().get("machines").size()).isEqualTo(2);
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body()).contains("from");
    assertThat(negative.status()).isEqualTo(400);
    assertThat(negative.body()).contains("last");
  }

  @Test
  void theTableIsPagedNewestFirstWithALinkToOlderVersions() {
    SeriesChart.View newest = charts.page(product, "fork", "time-per-op", null, null, 5).orElseThrow();
    SeriesChart.View older = charts.page(product, "fork", "time-per-op", null, newest.olderThan(), 5).orElseThrow();
    SeriesChart.View oldest = charts.page(product, "fork", "time-per-op", null, older.olderThan(), 5).orElseThrow();

    assertThat(newest.rows()).extracting(SeriesChart.TableRow::version).containsExactly("1.7", "1.8", "1.9", "1.10", "1.11");
    assertThat(newest.olderThan()).isEqualTo("1.7");
    assertThat(older.rows()).extracting(SeriesChart.TableRow::version).containsExactly("1.2", "1.3", "1.4", "1.5", "1.6");
    assertThat(oldest.rows()).extracting(SeriesChart.TableRow::version).containsExactly("1.0", "1.1");
    assertThat(oldest.olderThan()).isNull();
    assertThat(newest.rows().get(0).points()).extracting(p -> p.median()).containsExactly(37.0, 20.0);
  }

  @Test
  void theSeriesPageLinksToTheOlderPageAndBack() {
    String page = http().page("/products/" + product + "/series?benchmark=fork&metric=time-per-op&olderThan=1.11").body();

    assertThat(page).contains(">1.10<").doesNotContain(">1.11<").contains("newest versions");
    assertThat(http().page("/products/" + product + "/series?benchmark=fork&metric=time-per-op&olderThan=0.0").status())
        .isEqualTo(400);
  }

  @Test
  void aStepIsChartedWithItsMarginOfVersionsOnEachSideNotTheWholeSeries() {
    SeriesChart.View around = charts.view(product, "fork", "time-per-op", xp, new SeriesChart.Range("1.5", "1.6", 2))
        .orElseThrow();
    SeriesChart.View apart = charts.view(product, "fork", "time-per-op", null, new SeriesChart.Range("1.2", "1.9", 1))
        .orElseThrow();
    SeriesChart.View atTheStart = charts.view(product, "fork", "time-per-op", xp, new SeriesChart.Range("1.0", "1.1", 3))
        .orElseThrow();
    SeriesChart.View unknown = charts.view(product, "fork", "time-per-op", xp, new SeriesChart.Range("9.0", "9.1", 1))
        .orElseThrow();

    assertThat(around.rows()).extracting(SeriesChart.TableRow::version)
        .containsExactly("1.3", "1.4", "1.5", "1.6", "1.7", "1.8");
    assertThat(around.rows().get(2).points().get(0).samples()).containsExactly(10.0, 10.0, 10.0);
    assertThat(around.rows().get(3).points().get(0).samples()).containsExactly(20.0, 20.0, 20.0);
    assertThat(around.chartJson()).contains("\"1.3\"", "\"1.8\"").doesNotContain("\"1.2\"", "\"1.9\"");
    assertThat(apart.rows()).extracting(SeriesChart.TableRow::version)
        .containsExactly("1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10");
    assertThat(apart.machines()).containsExactlyInAnyOrder(xp, vista);
    assertThat(atTheStart.rows()).extracting(SeriesChart.TableRow::version)
        .containsExactly("1.0", "1.1", "1.2", "1.3", "1.4");
    assertThat(unknown.rows()).extracting(SeriesChart.TableRow::version).containsExactly("1.8", "1.9", "1.10", "1.11");
  }

  /**
   * The buckets cut {@code versions} (in order) into consecutive stretches, and each machine's median, lowest and
   * highest of a bucket are those of its detection levels at the stretch's versions, read from detection_point.
   */
  private void assertBucketsSummarise(ChartPoints.Chart chart, List<String> versions) {
    int at = 0;
    for (int b = 0; b < chart.versions().size(); b++) {
      assertThat(chart.versions().get(b)).as("bucket %d starts where the one before ended", b)
          .isEqualTo(versions.get(at));
      int end = versions.indexOf(chart.last().get(b));
      assertThat(end).as("bucket %d", b).isGreaterThanOrEqualTo(at);
      List<String> stretch = versions.subList(at, end + 1);
      for (SeriesChart.ChartMachine m : chart.machines()) {
        double[] levels = jdbc.sql("""
            SELECT dp.level FROM detection_point dp JOIN series s ON s.id = dp.series_id
            JOIN machine m ON m.id = s.machine_id JOIN version v ON v.id = dp.version_id
            WHERE m.name = ? AND s.benchmark = 'fork' AND v.name = ANY (?) ORDER BY dp.level""")
            .params(m.name(), stretch.toArray(String[]::new)).query(Double.class).list().stream()
            .mapToDouble(Double::doubleValue).toArray();
        if (levels.length == 0) {
          assertThat(m.median()[b]).isNull();
          continue;
        }
        int k = levels.length;
        double median = k % 2 == 1 ? levels[k / 2] : (levels[k / 2 - 1] + levels[k / 2]) / 2;
        assertThat(m.median()[b]).as("%s bucket %d %s", m.name(), b, stretch).isCloseTo(median, within(1e-6));
        assertThat(m.min()[b]).isCloseTo(levels[0], within(1e-6));
        assertThat(m.max()[b]).isCloseTo(levels[k - 1], within(1e-6));
      }
      at = end + 1;
    }
    assertThat(at).as("the buckets cover every version").isEqualTo(versions.size());
  }

  private long keptSummaries(String machine) {
    return jdbc.sql("""
        SELECT count(*) FROM chart_summary c JOIN series s ON s.id = c.series_id JOIN machine m ON m.id = s.machine_id
        WHERE m.name = ?""").param(machine).query(Long.class).single();
  }

  private static SeriesChart.ChartMachine machine(ChartPoints.Chart chart, String name) {
    return chart.machines().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
  }

  private void upload(org.perftrack.wire.RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }
}
