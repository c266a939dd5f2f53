package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Detector;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.VersionPoint;
import org.perftrack.server.detection.Reconciler;
import org.perftrack.server.detection.SeriesHistory;
import org.perftrack.server.detection.SeriesUpdate;

/**
 * Cost of detection + reconciliation for one run of 100 metrics, each series already holding
 * {@code versions} versions of 5 samples: the newest version appended, and a version backfilled in
 * the middle (the larger window). Pure CPU, no database. Run: {@code bench/run-main.sh
 * org.perftrack.server.detection.eval.DetectionBenchmark [lengths]} (default 50 200 2000).
 */
public final class DetectionBenchmark {
  private static final int METRICS = 100;
  private static final int ROUNDS = 200;

  public static void main(String[] args) {
    int[] lengths = args.length == 0 ? new int[] {50, 200, 2000}
        : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    for (int n : lengths) {
      List<SeriesHistory> series = series(n);
      System.out.printf(Locale.ROOT, "%5d versions: newest %6.2f ms, backfilled middle %6.2f ms per run of %d metrics%n",
          n, median(series, n - 1), median(series, n / 2), METRICS);
    }
  }

  private static double median(List<SeriesHistory> series, int changed) {
    Detector detector = new Detector();
    Reconciler reconciler = new Reconciler();
    List<SeriesUpdate> updates = series.stream().map(s -> new SeriesUpdate(s,
        s.points().get(changed).version(), DetectionSettings.DEFAULTS)).toList();
    double[] ms = new double[ROUNDS];
    for (int r = 0; r < ROUNDS * 2; r++) {
      long start = System.nanoTime();
      detector.detectRun(updates).forEach(result -> reconciler.reconcile(result, List.of()));
      if (r >= ROUNDS) {
        ms[r - ROUNDS] = (System.nanoTime() - start) / 1e6;
      }
    }
    Arrays.sort(ms);
    return ms[ROUNDS / 2];
  }

  private static List<SeriesHistory> series(int versions) {
    Random random = new Random(7);
    List<SeriesHistory> out = new ArrayList<>();
    for (int m = 0; m < METRICS; m++) {
      List<VersionPoint> points = new ArrayList<>();
      double level = 10 + random.nextInt(1000);
      for (int v = 0; v < versions; v++) {
        if (random.nextDouble() < 0.02) {
          level *= 1 + 0.3 * random.nextGaussian();
        }
        double[] samples = new double[5];
        double session = 1 + 0.01 * random.nextGaussian();
        for (int s = 0; s < 5; s++) {
          samples[s] = Math.abs(level * session * (1 + 0.02 * random.nextGaussian()));
        }
        points.add(VersionPoint.of("1." + v, samples));
      }
      out.add(new SeriesHistory(Direction.LOWER_IS_BETTER, points));
    }
    return out;
  }
}
