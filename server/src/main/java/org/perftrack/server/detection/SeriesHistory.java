package org.perftrack.server.detection;

import java.util.List;

/**
 * The points of one fingerprint (product, machine, benchmark, metric), in version order, and the runs of
 * it that were measured interleaved ({@code batchRuns}: the raw samples detection pairs round by round;
 * empty when none were).
 */
public record SeriesHistory(Direction direction, List<VersionPoint> points, List<BatchRun> batchRuns) {
  public SeriesHistory {
    points = List.copyOf(points);
    batchRuns = List.copyOf(batchRuns);
  }

  public SeriesHistory(Direction direction, List<VersionPoint> points) {
    this(direction, points, List.of());
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
