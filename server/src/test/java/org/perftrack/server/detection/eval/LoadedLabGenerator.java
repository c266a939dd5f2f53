package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/**
 * Series of a loaded lab machine (issue 10). Every machine measures its versions in interleaved sessions
 * of 2–4 versions: the first session measures versions 0..m−1, every later one the previous session's
 * newest version again (its baseline) and 1–3 new ones, so each version is measured next to the one
 * before it. A session multiplies all its samples by one factor with CV 15–40 % (the series' own), which
 * cancels within the session but not between sessions. Families:
 * <ul>
 *   <li>LOADED_GAUSSIAN: lognormal sample noise, CV 1–5 %.
 *   <li>LOADED_BURSTS: as above, and one round in five (on average) hit by a burst that makes every
 *       version's sample of that round 2–5× slower (each with its own ±20 % share of the burst).
 *   <li>LOADED_BIMODAL: two modes per sample: 30–50 % of samples ×1.15–1.4 slower (pipe-bw on 2 cores).
 *   <li>LOADED_ONE_OFF: as GAUSSIAN, and one sample in five 2–5× slower on its own (not the round).
 * </ul>
 * 40 % of series are noise only, the rest get one step (80 %) or two (at least 6 versions apart), a
 * regression or an improvement of ×1.1..×50 (log-uniform), at version 3..27.
 */
final class LoadedLabGenerator {
  static final int VERSIONS = 30;
  static final int ROUNDS = 5;
  static final String[] FAMILIES = {"LOADED_GAUSSIAN", "LOADED_BURSTS", "LOADED_BIMODAL", "LOADED_ONE_OFF"};
  private final Random random;

  LoadedLabGenerator(long seed) {
    this.random = new Random(seed);
  }

  List<Machine> machines(int count, int metricsPerMachine) {
    List<String> versions = new ArrayList<>();
    for (int v = 0; v < VERSIONS; v++) {
      versions.add("2." + v);
    }
    List<Machine> out = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      List<Machine.Run> runs = sessions();
      List<LabeledSeries> series = new ArrayList<>();
      for (int s = 0; s < metricsPerMachine; s++) {
        series.add(series(runs));
      }
      int[] order = runs.stream().mapToInt(Machine.Run::version).distinct().toArray();
      out.add(new Machine(versions, order, series, runs));
    }
    return out;
  }

  private List<Machine.Run> sessions() {
    List<Machine.Run> runs = new ArrayList<>();
    int next = 0;
    int batch = 0;
    while (next < VERSIONS) {
      int size = 2 + random.nextInt(3);
      if (next > 0) {
        runs.add(new Machine.Run(next - 1, batch));
        size--;
      }
      for (int i = 0; i < size && next < VERSIONS; i++) {
        runs.add(new Machine.Run(next++, batch));
      }
      batch++;
    }
    return runs;
  }

  private LabeledSeries series(List<Machine.Run> runs) {
    String family = FAMILIES[random.nextInt(FAMILIES.length)];
    Direction direction = random.nextDouble() < 0.7 ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER;
    double slower = direction == Direction.LOWER_IS_BETTER ? 1 : -1;
    double sessionCv = 0.15 + 0.25 * random.nextDouble();
    double sampleCv = 0.01 + 0.04 * random.nextDouble();
    double modeGap = Math.log(1.15 + 0.25 * random.nextDouble());
    double modeShare = 0.3 + 0.2 * random.nextDouble();
    List<LabeledSeries.Label> labels = labels(direction);
    double base = Math.exp(Math.log(1000) * random.nextDouble());
    int batches = runs.get(runs.size() - 1).batch() + 1;
    double[] session = new double[batches];
    double[][] burst = new double[batches][ROUNDS];
    for (int b = 0; b < batches; b++) {
      session[b] = sessionCv * random.nextGaussian();
      for (int r = 0; r < ROUNDS; r++) {
        burst[b][r] = family.equals("LOADED_BURSTS") && random.nextDouble() < 0.2 ? Math.log(2 + 3 * random.nextDouble()) : 0;
      }
    }
    double[][] runSamples = new double[runs.size()][ROUNDS];
    List<List<Double>> pooled = new ArrayList<>();
    for (int v = 0; v < VERSIONS; v++) {
      pooled.add(new ArrayList<>());
    }
    for (int i = 0; i < runs.size(); i++) {
      Machine.Run run = runs.get(i);
      double level = Math.log(base * levelFactor(labels, run.version())) + session[run.batch()];
      for (int r = 0; r < ROUNDS; r++) {
        double log = level + sampleCv * random.nextGaussian();
        if (burst[run.batch()][r] > 0) {
          log += slower * burst[run.batch()][r] * (1 + 0.2 * random.nextGaussian());
        }
        if (family.equals("LOADED_BIMODAL") && random.nextDouble() < modeShare) {
          log += slower * modeGap;
        }
        if (family.equals("LOADED_ONE_OFF") && random.nextDouble() < 0.2) {
          log += slower * Math.log(2 + 3 * random.nextDouble());
        }
        runSamples[i][r] = Math.exp(log);
        pooled.get(run.version()).add(runSamples[i][r]);
      }
    }
    double[][] samples = new double[VERSIONS][];
    for (int v = 0; v < VERSIONS; v++) {
      samples[v] = pooled.get(v).stream().mapToDouble(Double::doubleValue).toArray();
    }
    return new LabeledSeries(family, direction, samples, labels, runSamples);
  }

  private List<LabeledSeries.Label> labels(Direction direction) {
    double u = random.nextDouble();
    int steps = u < 0.4 ? 0 : u < 0.88 ? 1 : 2;
    List<LabeledSeries.Label> labels = new ArrayList<>();
    int first = 3 + random.nextInt(steps == 2 ? 19 : 25);
    for (int i = 0; i < steps; i++) {
      int index = i == 0 ? first : first + 6 + random.nextInt(28 - first - 6);
      double size = Math.exp(Math.log(1.1) + (Math.log(50) - Math.log(1.1)) * random.nextDouble());
      boolean up = random.nextBoolean();
      boolean worse = (direction == Direction.LOWER_IS_BETTER) == up;
      labels.add(new LabeledSeries.Label(index, worse ? Regression.Kind.REGRESSION : Regression.Kind.IMPROVEMENT,
          up ? size : 1 / size));
    }
    return labels;
  }

  private static double levelFactor(List<LabeledSeries.Label> labels, int v) {
    double f = 1;
    for (LabeledSeries.Label l : labels) {
      if (v >= l.index()) {
        f *= l.ratio();
      }
    }
    return f;
  }

  static String describe() {
    return Arrays.toString(FAMILIES);
  }
}
