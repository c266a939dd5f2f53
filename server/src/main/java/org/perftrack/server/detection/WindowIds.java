package org.perftrack.server.detection;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The version ids of a window cut from a kept tail, by version name: a view of the window's points and a list of
 * ids in the same order, not a hash map. Hashing 25 names for each of 100 windows per upload was 5 % of its
 * server-thread samples (JFR; the names' strings are cold in memory by the next upload). Names are looked up by
 * identity first (callers pass the points' own names), then by equality. {@link WindowRead#withPoint} keeps the
 * ids in step when it changes the points.
 */
final class WindowIds extends AbstractMap<String, Long> {

  private final List<VersionPoint> points;
  private final List<Long> ids;

  WindowIds(List<VersionPoint> points, List<Long> ids) {
    this.points = points;
    this.ids = ids;
  }

  /** The point at {@code at} was inserted into the points: its version's id goes to the same place. */
  void inserted(int at, long id) {
    ids.add(at, id);
  }

  /** The last point was removed from the points. */
  void removedLast() {
    ids.remove(ids.size() - 1);
  }

  @Override
  public Long get(Object name) {
    for (int i = 0; i < points.size(); i++) {
      if (points.get(i).version() == name) {
        return ids.get(i);
      }
    }
    for (int i = 0; i < points.size(); i++) {
      if (points.get(i).version().equals(name)) {
        return ids.get(i);
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object name) {
    return get(name) != null;
  }

  @Override
  public Long put(String name, Long id) {
    throw new UnsupportedOperationException("a view of the window's points");
  }

  @Override
  public Set<Entry<String, Long>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, Long>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override
          public boolean hasNext() {
            return i < points.size();
          }

          @Override
          public Entry<String, Long> next() {
            if (!hasNext()) {
              throw new java.util.NoSuchElementException();
            }
            Entry<String, Long> e = Map.entry(points.get(i).version(), ids.get(i));
            i++;
            return e;
          }
        };
      }

      @Override
      public int size() {
        return points.size();
      }
    };
  }
}
