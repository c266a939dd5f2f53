package org.perftrack.server.series;

import java.util.List;
import java.util.stream.Stream;
import org.perftrack.server.annotations.Annotations;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.pages.Fmt;
import org.perftrack.server.series.SeriesChart.Marker;
import org.springframework.stereotype.Component;

/**
 * The steps detection recorded on the charted series (regressions and improvements, not withdrawn),
 * as chart markers, as {@link Regressions#markedOn} gives them; and the notes (annotations) that fall on the
 * chart, as markers of kind {@code note} at the version each falls at ({@link Annotations#onChart}).
 */
@Component
class RegressionMarkers {

  /** A marker and the sort key of its version (to place it in a bucket of versions). */
  record Located(Marker marker, String sortKey) {}

  private static final Fmt FMT = new Fmt();

  private final Regressions regressions;
  private final Annotations annotations;

  RegressionMarkers(Regressions regressions, Annotations annotations) {
    this.regressions = regressions;
    this.annotations = annotations;
  }

  List<Marker> of(List<Long> seriesIds) {
    return located(seriesIds).stream().map(Located::marker).toList();
  }

  List<Located> located(List<Long> seriesIds) {
    Stream<Located> steps = regressions.markedOn(seriesIds).stream()
        .map(r -> new Located(new Marker(r.version(), r.machine(), r.kind().wire(),
            FMT.verdictChange(r.ratio(), r.direction(), r.unit()) + " " + r.place() + " on " + r.machine()
                + " (" + r.status().wire() + ")", "/regressions/" + r.id()), r.sortKey()));
    Stream<Located> notes = annotations.onChart(seriesIds).stream()
        .map(p -> new Located(new Marker(p.version(), p.note().machine(), "note", p.note().text() + " ("
            + p.note().when() + ", " + p.note().scope() + "; at " + p.version() + ")",
            "/annotations#annotation-" + p.note().id()), p.sortKey()));
    return Stream.concat(steps, notes).toList();
  }
}
