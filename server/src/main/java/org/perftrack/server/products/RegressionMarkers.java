package org.perftrack.server.products;

import java.util.List;
import org.perftrack.server.dashboard.Fmt;
import org.perftrack.server.products.SeriesChart.Marker;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The steps detection recorded on the charted series (regressions and improvements, not withdrawn),
 * as chart markers: read from detection's {@code regression} table by series (regression_series_version_idx).
 */
@Component
class RegressionMarkers {

  /** A marker and the sort key of its version (to place it in a bucket of versions). */
  record Located(Marker marker, String sortKey) {}

  private record Row(long id, String version, String sortKey, String machine, String kind, double ratio, String status,
      String direction, String unit) {}

  static final String MARKERS = """
      SELECT rg.id, v.name AS version, v.sort_key, m.name AS machine, rg.kind, rg.ratio, rg.status, s.direction, s.unit
      FROM regression rg
      JOIN series s ON s.id = rg.series_id
      JOIN machine m ON m.id = s.machine_id
      JOIN version v ON v.id = rg.version_id
      WHERE rg.series_id = ANY (?) AND rg.status <> 'withdrawn'
      ORDER BY v.sort_key, m.name""";

  private static final Fmt FMT = new Fmt();

  private final JdbcClient jdbc;

  RegressionMarkers(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  List<Marker> of(List<Long> seriesIds) {
    return located(seriesIds).stream().map(Located::marker).toList();
  }

  List<Located> located(List<Long> seriesIds) {
    return jdbc.sql(MARKERS).param(seriesIds.toArray(Long[]::new)).query(Row.class).list().stream()
        .map(r -> new Located(new Marker(r.version(), r.machine(), r.kind(),
            FMT.verdictChange(r.ratio(), r.direction(), r.unit()) + " in " + r.version() + " on " + r.machine()
                + " (" + r.status() + ")", "/regressions/" + r.id()), r.sortKey()))
        .toList();
  }
}
