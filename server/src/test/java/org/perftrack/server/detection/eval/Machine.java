package org.perftrack.server.detection.eval;

import java.util.List;

/**
 * A machine uploads one run per version carrying all its metrics, in {@code uploadOrder}; or, when
 * {@code runs} is not empty, the runs of interleaved sessions in that order (a version may be measured in
 * two sessions: as the new version of one and the baseline of the next).
 */
record Machine(List<String> versions, int[] uploadOrder, List<LabeledSeries> series, List<Run> runs) {

  Machine(List<String> versions, int[] uploadOrder, List<LabeledSeries> series) {
    this(versions, uploadOrder, series, List.of());
  }

  /** One upload of an interleaved session: version index and session (batch) number. */
  record Run(int version, int batch) {
  }
}
