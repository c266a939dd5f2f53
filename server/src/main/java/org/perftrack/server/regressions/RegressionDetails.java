package org.perftrack.server.regressions;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.runs.Environment;
import org.perftrack.server.runs.RunQueries;
import org.perftrack.server.series.SeriesChart;
import org.perftrack.server.series.SeriesQueries.VersionResults;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Everything one regression's page shows besides the record itself: chart, samples, environments. */
@Service
class RegressionDetails {

  /** Versions shown on each side of the step. */
  static final int MARGIN = 12;

  record Page(Regression regression, List<Regression.Hint> hints, SamplesSideBySide samples, SeriesChart.View chart,
      Environment environment, List<Regression.Status> triageStatuses) {}

  static final String LATEST_RUN = """
      SELECT r.id FROM run r
      JOIN product p ON p.id = r.product_id JOIN machine m ON m.id = r.machine_id JOIN version v ON v.id = r.version_id
      WHERE p.name = ? AND m.name = ? AND v.name = ? AND r.excluded_at IS NULL AND r.deletion_id IS NULL
      ORDER BY r.received_at DESC LIMIT 1""";

  private final RunQueries runs;
  private final SeriesChart charts;
  private final JdbcClient jdbc;

  RegressionDetails(RunQueries runs, SeriesChart charts, JdbcClient jdbc) {
    this.runs = runs;
    this.charts = charts;
    this.jdbc = jdbc;
  }

  Page of(Regression r, List<Regression.Status> triageStatuses) {
    // the chart's stretch of versions holds both sides of the step: no read of the whole series
    SeriesChart.View chart = charts.view(r.product(), r.benchmark(), r.metric(), r.machine(),
        new SeriesChart.Range(r.baselineVersion(), r.version(), MARGIN)).orElse(null);
    List<VersionResults> points = chart == null ? List.of() : chart.rows().stream()
        .map(row -> row.points().get(0)).filter(java.util.Objects::nonNull).toList();
    SamplesSideBySide samples = SamplesSideBySide.of(point(points, r.baselineVersion()), point(points, r.version()));
    Environment environment = Environment.of(run(r, r.baselineVersion()), run(r, r.version()));
    return new Page(r, r.hints(), samples, chart, environment, triageStatuses);
  }

  private RunQueries.StoredRunView run(Regression r, String version) {
    return jdbc.sql(LATEST_RUN).params(r.product(), r.machine(), version).query(UUID.class).optional()
        .flatMap(runs::find).orElse(null);
  }

  private static VersionResults point(List<VersionResults> points, String version) {
    return points.stream().filter(p -> p.version().equals(version)).findFirst().orElse(null);
  }
}
