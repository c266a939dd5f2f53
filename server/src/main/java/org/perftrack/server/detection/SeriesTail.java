package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;

/**
 * The last points of a series, in version order, as they stood at {@code stamp}: every point of the series from
 * the first one here on, and when {@code whole} no point before it either. Immutable.
 */
record SeriesTail(long stamp, boolean whole, List<VersionRef> versions, List<VersionPoint> points, List<Long> ids,
    SeriesTail previous) {

  /** A tail of these points (the versions' ids boxed once: boxing them for each window was 4 % of an upload). */
  static SeriesTail of(long stamp, boolean whole, List<VersionRef> versions, List<VersionPoint> points) {
    List<Long> ids = new ArrayList<>(versions.size());
    versions.forEach(v -> ids.add(v.id()));
    return new SeriesTail(stamp, whole, List.copyOf(versions), List.copyOf(points), List.copyOf(ids), null);
  }

  /** This tail if it is the one of this stamp, else the one it was made from if that is (a rolled-back write). */
  SeriesTail at(long seriesStamp) {
    return stamp == seriesStamp ? this : previous != null && previous.stamp == seriesStamp ? previous : null;
  }

  /** Index of the first point at or after this sort key. */
  int at(String sortKey) {
    int lo = 0;
    int hi = versions.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (versions.get(mid).sortKey().compareTo(sortKey) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** This tail after writing the point of {@code v}, stamped, with at most {@code keep} points. */
  SeriesTail with(VersionRef v, VersionPoint p, long newStamp, int keep) {
    int i = at(v.sortKey());
    List<VersionRef> vs = new ArrayList<>(versions.size() + 1);
    List<VersionPoint> ps = new ArrayList<>(versions.size() + 1);
    List<Long> is = new ArrayList<>(versions.size() + 1);
    vs.addAll(versions);
    ps.addAll(points);
    is.addAll(ids);
    boolean all = whole;
    if (i < vs.size() && vs.get(i).sortKey().equals(v.sortKey())) {
      // the row at this key is updated in place (its version id stays the one first written there)
      ps.set(i, VersionPoint.summarized(vs.get(i).name(), p.summary()));
    } else if (i > 0 || whole) {
      vs.add(i, v);
      ps.add(i, p);
      is.add(i, v.id());
    } // else: before the first point of a partial tail, which stays what it was from its first point on
    if (vs.size() > keep) {
      int drop = vs.size() - keep;
      vs = vs.subList(drop, vs.size());
      ps = ps.subList(drop, ps.size());
      is = is.subList(drop, is.size());
      all = false;
    }
    // the tail it was made from is kept (only one back): if this transaction rolls back, it is still the series'
    return new SeriesTail(newStamp, all, java.util.Collections.unmodifiableList(vs),
        java.util.Collections.unmodifiableList(ps), java.util.Collections.unmodifiableList(is),
        new SeriesTail(stamp, whole, versions, points, ids, null));
  }
}
