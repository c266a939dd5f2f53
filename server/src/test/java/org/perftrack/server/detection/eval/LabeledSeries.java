package org.perftrack.server.detection.eval;

import java.util.List;

import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/** One generated metric: samples[version][sample] in version order, and the injected steps. */
record LabeledSeries(String family, Direction direction, double[][] samples, List<Label> labels) {

  /** A step injected so that version {@code index} is the first on the new level. */
  record Label(int index, Regression.Kind kind, double ratio) {
  }

  boolean noiseOnly() {
    return labels.isEmpty();
  }

  /** One value per version, as Perfherder and Otava see a run (the mean of its replicates). */
  double[] summaries() {
    double[] out = new double[samples.length];
    for (int v = 0; v < samples.length; v++) {
      out[v] = java.util.Arrays.stream(samples[v]).average().orElseThrow();
    }
    return out;
  }
}
