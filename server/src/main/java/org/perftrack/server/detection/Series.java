package org.perftrack.server.detection;

import java.util.List;

/** The points of one fingerprint (product, machine, benchmark, metric), in version order. */
public record Series(Direction direction, List<Point> points) {
  public Series {
    points = List.copyOf(points);
  }

  public int indexOf(String version) {
    for (int i = 0; i < points.size(); i++) {
      if (points.get(i).version().equals(version)) {
        return i;
      }
    }
    return -1;
  }
}
