package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.perftrack.server.stats.Robust;

/**
 * A small SVG trend drawn on the server. Each machine's values are divided by that machine's own
 * median, so machines of different speed share one scale and a step that hits every machine looks
 * like one step. Up to {@link #MAX_LINES} machines get a line each; more would be a tangle, so then
 * the sparkline shows the median across machines and a band from the lowest to the highest.
 */
final class Sparkline {

  static final int WIDTH = 160;
  static final int HEIGHT = 34;
  static final int MAX_LINES = 5;
  private static final double PAD = 3;

  /** One polyline: the machine it belongs to, its colour slot and the SVG {@code points} attribute. */
  record Line(String machine, int colour, String points) {}

  /**
   * What to draw: lines per machine, or (many machines) a band polygon and a middle polyline; the
   * axis: {@code oneY} the height of "the median" (1×) and {@code low}/{@code high} the extent shown,
   * relative to the median ("×0.98", "×2.7"), so a flat line and a ×20 step do not look alike.
   */
  record Spark(List<Line> lines, String band, String middle, String oneY, String low, String high) {
    static final Spark EMPTY = new Spark(List.of(), null, null, null, null, null);
  }

  private Sparkline() {}

  /** {@code series.get(i)} are the values of machine {@code i} over the versions (null where absent). */
  static Spark of(List<String> machines, List<Integer> colours, List<Double[]> series) {
    List<double[]> relative = series.stream().map(Sparkline::relativeToMedian).toList();
    double[] range = range(relative);
    if (range == null) {
      return Spark.EMPTY;
    }
    if (relative.size() > MAX_LINES) {
      return aggregate(relative, range);
    }
    List<Line> lines = new ArrayList<>();
    for (int i = 0; i < relative.size(); i++) {
      String points = points(relative.get(i), range);
      if (!points.isEmpty()) {
        lines.add(new Line(machines.get(i), colours.get(i), points));
      }
    }
    return axis(new Spark(lines, null, null, null, null, null), range);
  }

  private static Spark axis(Spark s, double[] range) {
    StringBuilder one = new StringBuilder();
    appendTenths(one, HEIGHT - PAD - (1 - range[0]) / range[1] * (HEIGHT - 2 * PAD));
    return new Spark(s.lines(), s.band(), s.middle(), one.toString(), level(range[2]), level(range[3]));
  }

  /**
   * A level on the chart's scale, as a multiple of the median: "×0.98", "×2.7". Not a change between two versions,
   * so below 1 it stays a multiple rather than "N× less".
   */
  private static String level(double ofMedian) {
    return Double.isNaN(ofMedian) ? "—" : "×" + org.perftrack.wire.Quantities.factor(ofMedian);
  }

  private static Spark aggregate(List<double[]> relative, double[] range) {
    int n = relative.get(0).length;
    double[] lo = new double[n];
    double[] mid = new double[n];
    double[] hi = new double[n];
    for (int i = 0; i < n; i++) {
      final int at = i;
      double[] column = relative.stream().mapToDouble(r -> r[at]).filter(v -> !Double.isNaN(v)).sorted().toArray();
      boolean none = column.length == 0;
      lo[i] = none ? Double.NaN : column[0];
      mid[i] = none ? Double.NaN : Robust.sortedMedian(column, column.length);
      hi[i] = none ? Double.NaN : column[column.length - 1];
    }
    String top = points(hi, range);
    List<String> bottom = Arrays.asList(points(lo, range).split(" "));
    java.util.Collections.reverse(bottom);
    return axis(new Spark(List.of(), top.isEmpty() ? null : top + " " + String.join(" ", bottom), points(mid, range),
        null, null, null), range);
  }

  private static double[] range(List<double[]> relative) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double[] r : relative) {
      for (double v : r) {
        if (!Double.isNaN(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (lo > hi) {
      return null;
    }
    // a flat line sits in the middle instead of being stretched into noise
    double span = Math.max(hi - lo, 0.02);
    return new double[] {(hi + lo) / 2 - span / 2, span, lo, hi};
  }

  private static double[] relativeToMedian(Double[] values) {
    double[] present = new double[values.length];
    int n = 0;
    for (Double v : values) {
      if (v != null) {
        present[n++] = v;
      }
    }
    double[] r = new double[values.length];
    Arrays.fill(r, Double.NaN);
    if (n == 0) {
      return r;
    }
    Arrays.sort(present, 0, n);
    double median = Robust.sortedMedian(present, n);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null && median != 0) {
        r[i] = values[i] / median;
      }
    }
    return r;
  }

  /** One decimal without String.format, which was the most expensive part of the product page. */
  private static void appendTenths(StringBuilder sb, double v) {
    long tenths = Math.round(v * 10);
    if (tenths < 0) {
      sb.append('-');
      tenths = -tenths;
    }
    sb.append(tenths / 10).append('.').append(tenths % 10);
  }

  private static String points(double[] r, double[] range) {
    StringBuilder sb = new StringBuilder();
    double step = r.length > 1 ? (WIDTH - 2 * PAD) / (r.length - 1) : 0;
    for (int i = 0; i < r.length; i++) {
      if (!Double.isNaN(r[i])) {
        double x = PAD + i * step;
        double y = HEIGHT - PAD - (r[i] - range[0]) / range[1] * (HEIGHT - 2 * PAD);
        appendTenths(sb, x);
        sb.append(',');
        appendTenths(sb, y);
        sb.append(' ');
      }
    }
    return sb.toString().trim();
  }
}
