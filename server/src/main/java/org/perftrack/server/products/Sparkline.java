package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A small SVG trend drawn on the server: one polyline per machine. Each machine's values are divided
 * by that machine's own median, so machines of different speed share one scale and a step that hits
 * every machine looks like one step.
 */
final class Sparkline {

  static final int WIDTH = 160;
  static final int HEIGHT = 34;
  private static final double PAD = 3;

  /** One polyline: the machine it belongs to, its colour slot and the SVG {@code points} attribute. */
  record Line(String machine, int colour, String points) {}

  private Sparkline() {}

  /** {@code series.get(i)} are the values of machine {@code i} over the versions (null where absent). */
  static List<Line> lines(List<String> machines, List<Integer> colours, List<Double[]> series) {
    List<double[]> relative = new ArrayList<>();
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Double[] values : series) {
      double[] r = relativeToMedian(values);
      relative.add(r);
      for (double v : r) {
        if (!Double.isNaN(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (lo > hi) {
      return List.of();
    }
    // a flat line sits in the middle instead of being stretched into noise
    double span = Math.max(hi - lo, 0.02);
    double mid = (hi + lo) / 2;
    List<Line> lines = new ArrayList<>();
    for (int i = 0; i < relative.size(); i++) {
      String points = points(relative.get(i), mid - span / 2, span);
      if (!points.isEmpty()) {
        lines.add(new Line(machines.get(i), colours.get(i), points));
      }
    }
    return lines;
  }

  private static double[] relativeToMedian(Double[] values) {
    double[] present = Arrays.stream(values).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
    double[] r = new double[values.length];
    Arrays.fill(r, Double.NaN);
    if (present.length == 0) {
      return r;
    }
    double median = present[present.length / 2];
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null && median != 0) {
        r[i] = values[i] / median;
      }
    }
    return r;
  }

  private static String points(double[] r, double lo, double span) {
    StringBuilder sb = new StringBuilder();
    double step = r.length > 1 ? (WIDTH - 2 * PAD) / (r.length - 1) : 0;
    for (int i = 0; i < r.length; i++) {
      if (!Double.isNaN(r[i])) {
        double x = PAD + i * step;
        double y = HEIGHT - PAD - (r[i] - lo) / span * (HEIGHT - 2 * PAD);
        sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
    }
    return sb.toString().trim();
  }
}
