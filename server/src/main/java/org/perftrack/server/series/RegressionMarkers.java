package org.perftrack.server.series;

import java.util.List;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.pages.Fmt;
import org.perftrack.server.series.SeriesChart.Marker;
import org.springframework.stereotype.Component;

/**
 * The steps detection recorded on the charted series (regressions and improvements, not withdrawn),
 * as chart markers, as {@link Regressions#markedOn} gives them.
 */
@Component
class RegressionMarkers {

  /** A marker and the sort key of its version (to place it in a bucket of versions). */
  record Located(Marker marker, String sortKey) {}

  private static final Fmt FMT = new Fmt();

  private final Regressions regressions;

  RegressionMarkers(Regressions regressions) {
    this.regressions = regressions;
  }

  List<Marker> of(List<Long> seriesIds) {
    return located(seriesIds).stream().map(Located::marker).toList();
  }

  List<Located> located(List<Long> seriesIds) {
    return regressions.markedOn(seriesIds).stream()
        .map(r -> new Located(new Marker(r.version(), r.machine(), r.kind().wire(),
            FMT.verdictChange(r.ratio(), r.direction(), r.unit()) + " " + r.place() + " on " + r.machine()
                + " (" + r.status().wire() + ")", "/regressions/" + r.id()), r.sortKey()))
        .toList();
  }
}
