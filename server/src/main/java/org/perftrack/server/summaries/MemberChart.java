package org.perftrack.server.summaries;

import java.util.List;
import java.util.Locale;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.detection.PointReads.Level;
import org.springframework.stereotype.Service;

/**
 * The small chart beside each member: the series' level (trimmed mean per version) over the versions
 * around the step, as an SVG polyline drawn on the server, with the step's version marked. Each version
 * is a flat stretch, so that a step looks like a step even with two versions (a line between two points
 * would look like a slow drift).
 */
@Service
class MemberChart {

  static final int WIDTH = 120;
  static final int HEIGHT = 30;
  static final int AROUND = 6;

  /** {@code points} of the polyline, {@code stepX} where the member's version sits (null when not drawn). */
  record Chart(String points, String stepX, String title) {}

  private final PointReads points;

  MemberChart(PointReads points) {
    this.points = points;
  }

  Chart of(Regression r) {
    List<Level> all = points.levelsOfRegression(r.id());
    int at = 0;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).version().equals(r.version())) {
        at = i;
      }
    }
    List<Level> shown = all.subList(Math.max(0, at - AROUND), Math.min(all.size(), at + AROUND + 1));
    if (shown.size() < 2) {
      return new Chart("", null, "");
    }
    double lo = shown.stream().mapToDouble(Level::level).min().orElse(0);
    double hi = shown.stream().mapToDouble(Level::level).max().orElse(1);
    double span = hi - lo == 0 ? 1 : hi - lo;
    StringBuilder points = new StringBuilder();
    String stepX = null;
    double slot = (WIDTH - 4.0) / shown.size();
    for (int i = 0; i < shown.size(); i++) {
      double x = 2 + i * slot;
      double y = HEIGHT - 2 - (shown.get(i).level() - lo) / span * (HEIGHT - 4.0);
      points.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", x, y, x + slot, y));
      if (shown.get(i).version().equals(r.version())) {
        stepX = String.format(Locale.ROOT, "%.1f", x);
      }
    }
    return new Chart(points.toString().trim(), stepX,
        shown.get(0).version() + " → " + shown.get(shown.size() - 1).version());
  }
}
