package org.perftrack.server.detection.eval;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.perftrack.server.detection.Regression;

/**
 * Exact-version scoring: a hit names the labeled version and the right kind. Range scoring beside it: a hit is a
 * claim whose suspect versions contain a labeled step of its kind (each label found once); a claim whose range
 * contains none is a false step.
 */
final class Score {
  int rangeTruePositives;
  int rangeFalsePositives;
  /** Claims by the number of suspect versions (index 1 = one version, the last bucket = that many or more). */
  final int[] widths = new int[8];
  int truePositives;
  int falsePositives;
  int labels;
  int offByOne;
  int noiseSeries;
  int noiseAlerts;
  int noiseRegressions;
  int raisedInNoise;
  final List<Integer> delays = new java.util.ArrayList<>();
  /** Steps of ×2 or more (either way): how many, how many were ever withdrawn, how many found at once. */
  int largeSteps;
  int largeWithdrawn;
  int largeAtFirstUpload;

  void add(LabeledSeries s, List<Detected> found) {
    labels += s.labels().size();
    if (s.noiseOnly()) {
      noiseSeries++;
      noiseAlerts += found.size();
      noiseRegressions += (int) found.stream().filter(d -> d.kind() == Regression.Kind.REGRESSION).count();
    }
    Set<Integer> rangeHit = new HashSet<>();
    for (Detected d : found) {
      widths[Math.min(widths.length - 1, d.width())]++;
      boolean inside = false;
      for (int l = 0; l < s.labels().size(); l++) {
        LabeledSeries.Label label = s.labels().get(l);
        if (label.kind() == d.kind() && label.index() >= d.first() && label.index() <= d.last()
            && rangeHit.add(l)) {
          inside = true;
          break;
        }
      }
      if (inside) {
        rangeTruePositives++;
      } else {
        rangeFalsePositives++;
      }
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

  /** -Ddiag.missed: prints each step of the small-steps families no claim's range covers. */
  static final boolean MISSED = System.getProperty("diag.missed") != null;

  /**
   * A missed step: family, size, position (versions before and from it), the labels around it, the claims of the
   * series (version, range) and the step's size against the spread of the version levels on its two sides.
   */
  static void missed(LabeledSeries s, List<Detected> found) {
    if (!s.family().startsWith("SMALL_STEPS")) {
      return;
    }
    Set<Integer> rangeHit = new HashSet<>();
    for (Detected d : found) {
      for (int l = 0; l < s.labels().size(); l++) {
        LabeledSeries.Label label = s.labels().get(l);
        if (label.kind() == d.kind() && label.index() >= d.first() && label.index() <= d.last()
            && rangeHit.add(l)) {
          break;
        }
      }
    }
    double[] x = java.util.Arrays.stream(s.samples()).mapToDouble(v -> Math.log(
        org.perftrack.server.stats.Robust.trimmedMean(v))).toArray();
    for (int l = 0; l < s.labels().size(); l++) {
      if (rangeHit.contains(l)) {
        continue;
      }
      LabeledSeries.Label label = s.labels().get(l);
      int from = l == 0 ? 0 : s.labels().get(l - 1).index();
      int to = l == s.labels().size() - 1 ? x.length : s.labels().get(l + 1).index();
      int k = label.index();
      org.perftrack.server.stats.MeanSplit split = org.perftrack.server.stats.MeanSplit.of(x, from, k, to);
      double sd = split.sd(0);
      double t = split.t(0);
      System.out.printf(java.util.Locale.ROOT, "MISSED %s x%.3f at %d (segment %d..%d: %d before, %d from it)"
          + " t=%.1f level-sd=%.1f%% claims=%s%n", s.family(), label.ratio(), k, from, to, k - from, to - k, t,
          100 * sd, found.stream().map(d -> d.index() + "[" + d.first() + ".." + d.last() + "]").toList());
    }
  }

  /** Replay-only facts: regressions raised at any time in a noise-only series; detection delays of the labels. */
  void addReplay(LabeledSeries s, int raised, int[] labelDelays, boolean[] withdrawn) {
    if (s.noiseOnly()) {
      raisedInNoise += raised;
    }
    for (int l = 0; l < s.labels().size(); l++) {
      if (Math.abs(Math.log(s.labels().get(l).ratio())) >= OursReplay.LARGE) {
        largeSteps++;
        largeWithdrawn += withdrawn[l] ? 1 : 0;
        largeAtFirstUpload += labelDelays[l] == 1 ? 1 : 0;
      }
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
    largeSteps += o.largeSteps;
    largeWithdrawn += o.largeWithdrawn;
    largeAtFirstUpload += o.largeAtFirstUpload;
    raisedInNoise += o.raisedInNoise;
    delays.addAll(o.delays);
    truePositives += o.truePositives;
    rangeTruePositives += o.rangeTruePositives;
    rangeFalsePositives += o.rangeFalsePositives;
    for (int i = 0; i < widths.length; i++) {
      widths[i] += o.widths[i];
    }
    falsePositives += o.falsePositives;
    labels += o.labels;
    offByOne += o.offByOne;
    noiseSeries += o.noiseSeries;
    noiseAlerts += o.noiseAlerts;
    noiseRegressions += o.noiseRegressions;
  }

  /** Whether every count (and the delays, in any order) equals the other score's. */
  boolean sameCounts(Score o) {
    return truePositives == o.truePositives && falsePositives == o.falsePositives && labels == o.labels
        && offByOne == o.offByOne && rangeTruePositives == o.rangeTruePositives
        && rangeFalsePositives == o.rangeFalsePositives && java.util.Arrays.equals(widths, o.widths)
        && noiseSeries == o.noiseSeries && noiseAlerts == o.noiseAlerts && noiseRegressions == o.noiseRegressions
        && raisedInNoise == o.raisedInNoise && largeSteps == o.largeSteps && largeWithdrawn == o.largeWithdrawn
        && largeAtFirstUpload == o.largeAtFirstUpload
        && delays.stream().sorted().toList().equals(o.delays.stream().sorted().toList());
  }

  double precision() {
    return truePositives + falsePositives == 0 ? 1 : truePositives / (double) (truePositives + falsePositives);
  }

  double rangePrecision() {
    int claims = rangeTruePositives + rangeFalsePositives;
    return claims == 0 ? 1 : rangeTruePositives / (double) claims;
  }

  double rangeRecall() {
    return labels == 0 ? 1 : rangeTruePositives / (double) labels;
  }

  double rangeF1() {
    return f1(rangePrecision(), rangeRecall());
  }

  /** Claims of 1, 2, 3 ... suspect versions, e.g. "1:812 2:40 3:9". */
  String widthCounts() {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < widths.length; i++) {
      if (widths[i] > 0) {
        b.append(b.isEmpty() ? "" : " ").append(i).append(i == widths.length - 1 ? "+" : "").append(':')
            .append(widths[i]);
      }
    }
    return b.toString();
  }

  double recall() {
    return labels == 0 ? 1 : truePositives / (double) labels;
  }

  double f1() {
    return f1(precision(), recall());
  }

  /** The harmonic mean of a precision and a recall (0 when both are). */
  static double f1(double precision, double recall) {
    return precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
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
