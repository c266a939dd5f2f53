package org.perftrack.server.changepoint;

import java.util.List;

/**
 * The versions of one series since its last decided step, oldest first.
 *
 * @param versions each version's runs
 * @param firstNew the index of the first version not judged before (the new versions an upload brought)
 */
public record Segment(List<Version> versions, int firstNew) {

  public Segment {
    versions = List.copyOf(versions);
    if (firstNew < 0 || firstNew > versions.size()) {
      throw new IllegalArgumentException("firstNew " + firstNew + " outside 0.." + versions.size());
    }
  }

  /**
   * One version: its runs, each run's samples (positive values, as measured).
   *
   * @param name the version's name (carried, not read)
   */
  public record Version(String name, List<double[]> runs) {
    public Version {
      runs = List.copyOf(runs);
    }
  }
}
