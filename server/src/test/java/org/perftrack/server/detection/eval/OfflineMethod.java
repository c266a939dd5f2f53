package org.perftrack.server.detection.eval;

import java.util.List;

import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/** A reimplemented field method, run once on the final series (all versions, in order): its best case. */
interface OfflineMethod {
  String name();

  /** Indices of change points in the per-version values, with the sign of the change. */
  List<int[]> changePoints(double[] values);

  default List<Detected> detect(LabeledSeries s) {
    return changePoints(s.summaries()).stream().map(cp -> new Detected(cp[0],
        (cp[1] > 0) == (s.direction() == Direction.LOWER_IS_BETTER) ? Regression.Kind.REGRESSION : Regression.Kind.IMPROVEMENT))
        .toList();
  }
}
