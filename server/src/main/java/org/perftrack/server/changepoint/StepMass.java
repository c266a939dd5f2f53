package org.perftrack.server.changepoint;

/**
 * The posterior over step configurations (none, one at k, two at k1 < k2 - 1) of version levels {@code y} with
 * variances {@code v}, given as several alternatives (the between-run variance's grid, equally likely a priori):
 * each version's step mass, and how much of it is a rise or a fall of at least {@code minStep} (log ratio).
 */
final class StepMass {
  static final double MIN_SCALE = Math.log(1.02);
  static final double MAX_SCALE = Math.log(3);
  /** Step-size scales integrated for one step, and for each of two steps. */
  static final double[] ONE = scales(10);
  static final double[] TWO = scales(4);
  private static final double[] TWO_PRECISION = java.util.Arrays.stream(TWO).map(t -> 1 / (t * t)).toArray();
  private static final double[] TWO_LOG_VARIANCE = java.util.Arrays.stream(TWO).map(t -> Math.log(t * t)).toArray();
  /** Versions a level holds at least (but the newest): shorter excursions are sessions, not steps. */
  static final int MIN_LEVEL = 3;
  /** The SD of a drift's slope per version (log scale), when there is one. */
  static final double DRIFT = 0.003;
  /** Terms further than this below the likeliest (in log) change no figure. */
  private static final double NEGLIGIBLE = 21;

  final int n;
  final double[] any;
  final double[] up;
  final double[] down;
  final double[] shift;
  double none;
  double two;
  /** The likeliest configuration: its alternative and steps (-1 where none). */
  int bestAlternative;
  int bestFirst = -1;
  int bestSecond = -1;
  /** Whether the likeliest configuration drifts. */
  boolean bestDrifts;
  private boolean drifting;

  private final double[][] y;
  private final double[][] v;
  private final double rate;
  private final double minStep;
  private final double drift;
  private double max = Double.NEGATIVE_INFINITY;
  private final double[] alternativeMax;
  private double total;

  private StepMass(double[][] y, double[][] v, double rate, double minStep, double drift) {
    this.y = y;
    this.v = v;
    this.n = y[0].length;
    this.rate = rate;
    this.minStep = minStep;
    this.drift = drift;
    any = new double[n];
    up = new double[n];
    down = new double[n];
    shift = new double[n];
    alternativeMax = new double[y.length];
    java.util.Arrays.fill(alternativeMax, Double.NEGATIVE_INFINITY);
  }

  /** {@code drift}: the prior probability that the levels drift (a slope integrated out in every configuration). */
  static StepMass of(double[][] y, double[][] v, double rate, double minStep, double drift) {
    StepMass m = new StepMass(y, v, rate, minStep, drift);
    for (int g = 0; g < y.length; g++) {
      m.visit(g, false);
    }
    for (int g = 0; g < y.length; g++) {
      if (m.alternativeMax[g] >= m.max - NEGLIGIBLE) {
        m.visit(g, true);
      }
    }
    m.normalise();
    return m;
  }

  private static double[] scales(int count) {
    double[] s = new double[count];
    for (int i = 0; i < count; i++) {
      s[i] = Math.exp(Math.log(MIN_SCALE) + (Math.log(MAX_SCALE) - Math.log(MIN_SCALE)) * (i + 0.5) / count);
    }
    return s;
  }

  /** Every configuration's log weight under alternative {@code g}, without and with a drift; the second pass adds. */
  private void visit(int g, boolean add) {
    double[] yy = y[g];
    double[] vv = v[g];
    double[] sw = new double[n + 1];
    double[] sy = new double[n + 1];
    double[] st = new double[n + 1];
    double stt = 0;
    double sty = 0;
    for (int k = n - 1; k >= 0; k--) {
      sw[k] = sw[k + 1] + 1 / vv[k];
      sy[k] = sy[k + 1] + yy[k] / vv[k];
      st[k] = st[k + 1] + k / vv[k];
      stt += (double) k * k / vv[k];
      sty += k * yy[k] / vv[k];
    }
    double w = sw[0];
    double mean = sy[0] / w;
    double s0 = 0;
    double logDet = 0;
    for (int k = 0; k < n; k++) {
      s0 += (yy[k] - mean) * (yy[k] - mean) / vv[k];
      logDet += Math.log(vv[k]);
    }
    double[] c = new double[n];
    double[] d = new double[n];
    double[] e = new double[n];
    for (int k = 1; k < n; k++) {
      c[k] = sy[k] - sw[k] * mean;
      d[k] = sw[k] - sw[k] * sw[k] / w;
      e[k] = st[k] - st[0] * sw[k] / w;
    }
    double base = -0.5 * (logDet + Math.log(w) + s0);
    if (drift < 1) {
      drifting = false;
      configurations(add, g, base + Math.log1p(-drift), c, d, e, sw, w, 0);
    }
    if (drift > 0) {
      // the drift's slope integrated out (normal, SD DRIFT per version): every inner product loses its part along
      // the trend (Woodbury), and the evidence gains the trend's own factor
      double tt = stt - st[0] * st[0] / w;
      double ty = sty - st[0] * sy[0] / w;
      double q = tt + 1 / (DRIFT * DRIFT);
      double[] cd = new double[n];
      double[] dd = new double[n];
      for (int k = 1; k < n; k++) {
        cd[k] = c[k] - e[k] * ty / q;
        dd[k] = d[k] - e[k] * e[k] / q;
      }
      drifting = true;
      double trend = -0.5 * Math.log1p(DRIFT * DRIFT * tt) + 0.5 * ty * ty / q;
      configurations(add, g, base + Math.log(drift) + trend, cd, dd, e, sw, w, 1 / q);
    }
  }

  /** No step, one step, two steps, given the inner products along each step ({@code c}, {@code d}). */
  private void configurations(boolean add, int g, double base, double[] c, double[] d, double[] e, double[] sw,
      double w, double trendShare) {
    double logStay = Math.log1p(-rate);
    double logStep = Math.log(rate);
    term(add, g, -1, -1, base + (n - 1) * logStay, 0, 0, 0, 0);
    double one = base + logStep + (n - 2) * logStay - Math.log(ONE.length);
    int first = n > MIN_LEVEL ? MIN_LEVEL : 1;
    for (int k = first; k < n; k++) {
      for (double tau : ONE) {
        double q = d[k] + 1 / (tau * tau);
        double bf = -0.5 * Math.log1p(tau * tau * d[k]) + 0.5 * c[k] * c[k] / q;
        term(add, g, k, -1, one + bf, c[k] / q, 1 / q, 0, 0);
      }
    }
    double pair = base + 2 * logStep + (n - 3) * logStay - 2 * Math.log(TWO.length);
    for (int k1 = first; k1 < n; k1++) {
      for (int k2 = k1 + MIN_LEVEL; k2 < n; k2++) {
        double d12 = sw[k2] - sw[k1] * sw[k2] / w - e[k1] * e[k2] * trendShare;
        for (int i = 0; i < TWO.length; i++) {
          double a11 = d[k1] + TWO_PRECISION[i];
          for (int j = 0; j < TWO.length; j++) {
            double a22 = d[k2] + TWO_PRECISION[j];
            double det = a11 * a22 - d12 * d12;
            double m1 = (a22 * c[k1] - d12 * c[k2]) / det;
            double m2 = (a11 * c[k2] - d12 * c[k1]) / det;
            double bf = -0.5 * (TWO_LOG_VARIANCE[i] + TWO_LOG_VARIANCE[j] + Math.log(det))
                + 0.5 * (c[k1] * m1 + c[k2] * m2);
            term(add, g, k1, k2, pair + bf, m1, a22 / det, m2, a11 / det);
          }
        }
      }
    }
  }

  private void term(boolean add, int g, int k1, int k2, double logWeight, double m1, double v1, double m2,
      double v2) {
    if (!add) {
      alternativeMax[g] = Math.max(alternativeMax[g], logWeight);
      if (logWeight > max) {
        max = logWeight;
        bestAlternative = g;
        bestFirst = k1;
        bestSecond = k2;
        bestDrifts = drifting;
      }
      return;
    }
    if (logWeight < max - NEGLIGIBLE) {
      return;
    }
    double e = Math.exp(logWeight - max);
    total += e;
    if (k1 < 0) {
      none += e;
      return;
    }
    step(k1, e, m1, v1);
    if (k2 >= 0) {
      two += e;
      step(k2, e, m2, v2);
    }
  }

  private void step(int k, double e, double mean, double variance) {
    double sd = Math.sqrt(variance);
    any[k] += e;
    up[k] += e * upper((minStep - mean) / sd);
    down[k] += e * upper((minStep + mean) / sd);
    shift[k] += e * mean;
  }

  /** {@link #tail} every {@link #STEP} from -{@link #EDGE} to {@link #EDGE}: linear between (error below 1e-5). */
  private static final double EDGE = 8;
  private static final double STEP = 0.005;
  private static final double[] TAIL = java.util.stream.IntStream.rangeClosed(0, (int) Math.round(2 * EDGE / STEP))
      .mapToDouble(i -> tail(-EDGE + i * STEP)).toArray();

  /** P(Z > z) of a standard normal, from the table. */
  static double upper(double z) {
    if (!(z > -EDGE)) {
      return 1;
    }
    if (z >= EDGE) {
      return 0;
    }
    double at = (z + EDGE) / STEP;
    int i = (int) at;
    return TAIL[i] + (at - i) * (TAIL[i + 1] - TAIL[i]);
  }

  /** P(Z > z) of a standard normal (Numerical Recipes' erfcc: relative error below 1.2e-7 everywhere). */
  static double tail(double z) {
    double x = z / Math.sqrt(2);
    double t = 1 / (1 + 0.5 * Math.abs(x));
    double erfc = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
        + t * 0.17087277)))))))));
    return 0.5 * (x >= 0 ? erfc : 2 - erfc);
  }

  private void normalise() {
    for (int k = 0; k < n; k++) {
      shift[k] = any[k] > 0 ? shift[k] / any[k] : 0;
      any[k] /= total;
      up[k] /= total;
      down[k] /= total;
    }
    none /= total;
    two /= total;
  }
}
