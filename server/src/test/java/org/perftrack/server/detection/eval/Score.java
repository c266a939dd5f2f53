package org.perftrack.server.detection.eval;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.perftrack.server.detection.Regression;

/** Exact-version scoring: a hit names the labeled version and the right kind. */
final class Score {
  int truePositives;
  int falsePositives;
  int labels;
  int offByOne;
  int noiseSeries;
  int noiseAlerts;
  int noiseRegressions;
  int raisedInNoise;
  final List<Integer> delays = new java.util.ArrayList<>();

  void add(LabeledSeries s, List<Detected> found) {
    labels += s.labels().size();
    if (s.noiseOnly()) {
      noiseSeries++;
      noiseAlerts += found.size();
      noiseRegressions += (int) found.stream().filter(d -> d.kind() == Regression.Kind.REGRESSION).count();
    }
    Set<Integer> hit = new HashSet<>();
    for (Detected d : found) {
      boolean match = s.labels().stream().anyMatch(l -> l.index() == d.index() && l.kind() == d.kind());
      if (match && hit.add(d.index())) {
        truePositives++;
      } else {
        falsePositives++;
        offByOne += s.labels().stream().anyMatch(l -> Math.abs(l.index() - d.index()) == 1) ? 1 : 0;
      }
    }
  }

  /** Replay-only facts: regressions raised at any time in a noise-only series; detection delays of the labels. */
  void addReplay(LabeledSeries s, int raised, int[] labelDelays) {
    if (s.noiseOnly()) {
      raisedInNoise += raised;
    }
    for (int d : labelDelays) {
      if (d > 0) {
        delays.add(d);
      }
    }
  }

  double raisedPerThousand() {
    return noiseSeries == 0 ? 0 : 1000.0 * raisedInNoise / noiseSeries;
  }

  /** Median number of versions from the step on that had been uploaded when it was first flagged exactly. */
  String medianDelay() {
    if (delays.isEmpty()) {
      return "-";
    }
    List<Integer> sorted = delays.stream().sorted().toList();
    return String.valueOf(sorted.get(sorted.size() / 2));
  }

  void merge(Score o) {
    raisedInNoise += o.raisedInNoise;
    delays.addAll(o.delays);
    truePositives += o.truePositives;
    falsePositives += o.falsePositives;
    labels += o.labels;
    offByOne += o.offByOne;
    noiseSeries += o.noiseSeries;
    noiseAlerts += o.noiseAlerts;
    noiseRegressions += o.noiseRegressions;
  }

  double precision() {
    return truePositives + falsePositives == 0 ? 1 : truePositives / (double) (truePositives + falsePositives);
  }

  double recall() {
    return labels == 0 ? 1 : truePositives / (double) labels;
  }

  double f1() {
    double p = precision();
    double r = recall();
    return p + r == 0 ? 0 : 2 * p * r / (p + r);
  }

  /** Steps of either kind claimed in noise-only series, per 1,000 such series. */
  double falseStepsPerThousand() {
    return noiseSeries == 0 ? 0 : 1000.0 * noiseAlerts / noiseSeries;
  }

  /** Regressions (the steps that alert) claimed in noise-only series, per 1,000 such series. */
  double falseAlertsPerThousand() {
    return noiseSeries == 0 ? 0 : 1000.0 * noiseRegressions / noiseSeries;
  }
}
