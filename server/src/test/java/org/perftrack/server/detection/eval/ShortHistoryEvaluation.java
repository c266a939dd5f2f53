package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.perftrack.server.detection.DetectionResult;
import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Detector;
import org.perftrack.server.detection.VersionPoint;
import org.perftrack.server.detection.SeriesHistory;
import org.perftrack.server.detection.SeriesUpdate;
import org.perftrack.server.detection.Regression;

/**
 * A machine's first uploads, where no history tells the between-session noise (the main evaluation
 * scores only the end of 30 versions). On the same generated series: false alerts raised by the
 * upload of version k = 2, 3, 4 (all noise: injected steps start at version 5), per 1,000 series; and,
 * for every injected step, whether the pair (version before, step version) alone is flagged at the
 * exact version, by size. Every metric of a machine is detected together, as one run.
 * <pre>
 * bench/run-main.sh org.perftrack.server.detection.eval.ShortHistoryEvaluation 1 2 3 4 5 6
 * </pre>
 */
public final class ShortHistoryEvaluation {
  private static final double[] SIZES = {0.1, 0.5, 1.0};
  private final Detector detector = new Detector();

  public static void main(String[] args) {
    List<Long> seeds = new ArrayList<>();
    for (String a : args) {
      seeds.add(Long.parseLong(a));
    }
    new ShortHistoryEvaluation().run(seeds.isEmpty() ? List.of(1L, 2L, 3L) : seeds);
  }

  void run(List<Long> seeds) {
    long[] falseAlerts = new long[5];
    long noiseSeries = 0;
    long[] found = new long[SIZES.length + 1];
    long[] steps = new long[SIZES.length + 1];
    for (long seed : seeds) {
      for (Machine m : new SeriesGenerator(seed, 3).machines(Evaluation.MACHINES, Evaluation.METRICS)) {
        noiseSeries += m.series().size();
        for (int k = 2; k <= 4; k++) {
          falseAlerts[k] += firstUploads(m, k);
        }
        pairs(m, found, steps);
      }
    }
    for (int k = 2; k <= 4; k++) {
      System.out.printf(Locale.ROOT, "upload of version %d: %.1f false regressions per 1,000 series%n", k,
          1000.0 * falseAlerts[k] / noiseSeries);
    }
    for (int b = 0; b <= SIZES.length; b++) {
      String range = b == 0 ? "< +10 %" : b == SIZES.length ? ">= +100 %" : String.format(Locale.ROOT,
          "+%.0f..%.0f %%", 100 * SIZES[b - 1], 100 * SIZES[b]);
      System.out.printf(Locale.ROOT, "two versions, step %-12s %6d steps, %5.1f %% flagged%n", range, steps[b],
          100.0 * found[b] / Math.max(1, steps[b]));
    }
  }

  /** Regressions raised by the upload of version k - 1 when only versions 0..k-1 exist. */
  private int firstUploads(Machine m, int k) {
    List<SeriesUpdate> updates = m.series().stream().map(ls -> update(m, ls, 0, k)).toList();
    return (int) detector.detectRun(updates).stream().flatMap(r -> r.steps().stream())
        .filter(s -> s.kind() == Regression.Kind.REGRESSION).count();
  }

  /** Every injected step seen through its own version pair only. */
  private void pairs(Machine m, long[] found, long[] steps) {
    List<SeriesUpdate> updates = new ArrayList<>();
    List<LabeledSeries.Label> labels = new ArrayList<>();
    for (LabeledSeries ls : m.series()) {
      for (LabeledSeries.Label label : ls.labels()) {
        updates.add(update(m, ls, label.index() - 1, label.index() + 1));
        labels.add(label);
      }
    }
    List<DetectionResult> results = detector.detectRun(updates);
    for (int i = 0; i < labels.size(); i++) {
      LabeledSeries.Label label = labels.get(i);
      int bucket = bucket(Math.exp(Math.abs(Math.log(label.ratio()))) - 1);
      steps[bucket]++;
      String version = m.versions().get(label.index());
      found[bucket] += results.get(i).steps().stream()
          .anyMatch(s -> s.version().equals(version) && s.kind() == label.kind()) ? 1 : 0;
    }
  }

  private static int bucket(double change) {
    int b = 0;
    while (b < SIZES.length && change >= SIZES[b]) {
      b++;
    }
    return b;
  }

  private static SeriesUpdate update(Machine m, LabeledSeries ls, int from, int to) {
    List<VersionPoint> points = new ArrayList<>();
    for (int v = from; v < to; v++) {
      points.add(VersionPoint.of(m.versions().get(v), ls.samples()[v]));
    }
    return new SeriesUpdate(new SeriesHistory(ls.direction(), points), m.versions().get(to - 1), DetectionSettings.DEFAULTS);
  }
}
