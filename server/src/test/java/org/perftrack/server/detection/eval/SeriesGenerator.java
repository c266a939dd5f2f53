package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/**
 * Labeled series for the evaluation. Every series has a session-to-session jitter (0.2-1 %) on top
 * of its family's sample noise. 40 % are noise only; the rest get one step (80 %) or two (20 %,
 * at least 6 versions apart), a regression or an improvement, size log-uniform in 2 %..300 % but at
 * least {@code minSnr} times the per-version noise (below that, no method sees it in 30 versions).
 * Steps start at version index 5..27, so at least 3 versions follow. About 15 % of versions are
 * uploaded 1-8 uploads late (backfills).
 */
final class SeriesGenerator {
  static final int VERSIONS = 30;
  static final int SAMPLES = 5;
  private final Random random;
  private final double minSnr;
  private final boolean noiseOnly;
  /** What made each series (its base level and drift), for {@link #rerun}: kept aside, drawing nothing more. */
  private final java.util.Map<LabeledSeries, double[]> made = new java.util.IdentityHashMap<>();

  SeriesGenerator(long seed, double minSnr) {
    this(seed, minSnr, false);
  }

  /** {@code noiseOnly}: every series without a step (the false-alert count over many noise-only series). */
  SeriesGenerator(long seed, double minSnr, boolean noiseOnly) {
    this.random = new Random(seed);
    this.minSnr = minSnr;
    this.noiseOnly = noiseOnly;
  }

  List<Machine> machines(int count, int metricsPerMachine) {
    List<String> versions = new ArrayList<>();
    for (int v = 0; v < VERSIONS; v++) {
      versions.add("1." + v);
    }
    List<Machine> out = new ArrayList<>();
    for (int m = 0; m < count; m++) {
      List<LabeledSeries> series = new ArrayList<>();
      for (int s = 0; s < metricsPerMachine; s++) {
        series.add(series());
      }
      out.add(new Machine(versions, uploadOrder(), series));
    }
    return out;
  }

  private int[] uploadOrder() {
    double[] at = new double[VERSIONS];
    for (int v = 0; v < VERSIONS; v++) {
      at[v] = v + (random.nextDouble() < 0.15 ? 1.5 + random.nextInt(8) : 0);
    }
    return java.util.stream.IntStream.range(0, VERSIONS).boxed()
        .sorted(Comparator.comparingDouble(v -> at[v])).mapToInt(Integer::intValue).toArray();
  }

  private LabeledSeries series() {
    NoiseFamily family = NoiseFamily.values()[random.nextInt(NoiseFamily.values().length)];
    Direction direction = random.nextDouble() < 0.7 ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER;
    int samplesPerVersion = family.samples(SAMPLES);
    // one value per version: its whole noise is between versions (1–4 %), none within
    double sessionSd = family == NoiseFamily.ONE_VALUE ? 0.01 + 0.03 * random.nextDouble()
        : 0.002 + 0.008 * random.nextDouble();
    double sampleCv = family == NoiseFamily.ONE_VALUE ? 0 : family.sampleCv;
    double pointNoise = Math.sqrt(sessionSd * sessionSd + sampleCv * sampleCv / samplesPerVersion);
    List<LabeledSeries.Label> labels = noiseOnly ? List.of()
        : family.smallSteps() ? smallSteps(direction) : labels(direction, pointNoise);
    double base = Math.exp(Math.log(1000) * random.nextDouble());
    double drift = (0.0015 + 0.0025 * random.nextDouble()) * (random.nextBoolean() ? 1 : -1);
    double[][] samples = new double[VERSIONS][samplesPerVersion];
    for (int v = 0; v < VERSIONS; v++) {
      double level = base * levelFactor(labels, v);
      double session = Math.exp(sessionSd * random.nextGaussian()) * family.session(random, v, drift);
      for (int s = 0; s < samplesPerVersion; s++) {
        samples[v][s] = level * session * family.sample(random);
      }
    }
    LabeledSeries out = new LabeledSeries(family.name(), direction, samples, labels, new double[0][], sessionSd);
    made.put(out, new double[] {base, drift});
    return out;
  }

  /**
   * A fresh run of version {@code v} of a series this generator made, drawn from {@code random}: a new session (its
   * own session jitter and the family's session factor) and new samples, as a lab measuring the version again.
   */
  double[] rerun(LabeledSeries s, int v, Random random) {
    double[] m = made.get(s);
    NoiseFamily family = NoiseFamily.valueOf(s.family());
    double level = m[0] * levelFactor(s.labels(), v);
    double session = Math.exp(s.sessionSd() * random.nextGaussian()) * family.session(random, v, m[1]);
    double[] samples = new double[s.samples()[v].length];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = level * session * family.sample(random);
    }
    return samples;
  }

  private List<LabeledSeries.Label> labels(Direction direction, double pointNoise) {
    double u = random.nextDouble();
    int steps = u < 0.4 ? 0 : u < 0.88 ? 1 : 2;
    List<LabeledSeries.Label> labels = new ArrayList<>();
    int first = 5 + random.nextInt(steps == 2 ? 17 : 23);
    for (int i = 0; i < steps; i++) {
      int index = i == 0 ? first : first + 6 + random.nextInt(28 - first - 6);
      labels.add(label(index, direction, pointNoise));
    }
    return labels;
  }

  /**
   * The small steps the field's offline methods find by pooling: 5–12 %, one per series (60 %), at version 5..19 so
   * that ten or more versions follow it.
   */
  private List<LabeledSeries.Label> smallSteps(Direction direction) {
    if (random.nextDouble() < 0.4) {
      return List.of();
    }
    double size = 0.05 + 0.07 * random.nextDouble();
    boolean up = random.nextBoolean();
    boolean worse = (direction == Direction.LOWER_IS_BETTER) == up;
    return List.of(new LabeledSeries.Label(5 + random.nextInt(15),
        worse ? Regression.Kind.REGRESSION : Regression.Kind.IMPROVEMENT, up ? 1 + size : 1 / (1 + size)));
  }

  private LabeledSeries.Label label(int index, Direction direction, double pointNoise) {
    double floor = Math.max(0.02, Math.expm1(minSnr * pointNoise));
    double size = Math.exp(Math.log(floor) + (Math.log(3.0) - Math.log(floor)) * random.nextDouble());
    boolean up = random.nextBoolean();
    double ratio = up ? 1 + size : 1 / (1 + size);
    boolean worse = (direction == Direction.LOWER_IS_BETTER) == up;
    return new LabeledSeries.Label(index, worse ? Regression.Kind.REGRESSION : Regression.Kind.IMPROVEMENT, ratio);
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
    return Arrays.toString(NoiseFamily.values());
  }
}
