package org.perftrack.server.detection.eval;

import java.util.List;

/** A machine uploads one run per version carrying all its metrics, in {@code uploadOrder}. */
record Machine(List<String> versions, int[] uploadOrder, List<LabeledSeries> series) {
}
