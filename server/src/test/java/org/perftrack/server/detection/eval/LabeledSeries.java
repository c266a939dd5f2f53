package org.perftrack.server.detection.eval;

import java.util.List;

import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/**
 * One generated metric: samples[version][sample] in version order (all runs of a version pooled), and
 * the injected steps. {@code runSamples[r]} holds the samples of the machine's r-th run when the machine
 * uploads interleaved sessions ({@link Machine#runs()}), else it is empty. {@code sessionSd}: the SD of the
 * log of each version's session factor (what only the oracle may know; NaN where the generator does not say).
 */
record LabeledSeries(String family, Direction direction, double[][] samples, List<Label> labels,
    double[][] runSamples, double sessionSd) {

  LabeledSeries(String family, Direction direction, double[][] samples, List<Label> labels) {
    this(family, direction, samples, labels, new double[0][], Double.NaN);
  }

  LabeledSeries(String family, Direction direction, double[][] samples, List<Label> labels, double[][] runSamples) {
    this(family, direction, samples, labels, runSamples, Double.NaN);
  }

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
