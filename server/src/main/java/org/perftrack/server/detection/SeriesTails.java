package org.perftrack.server.detection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The last points of recently judged series, kept per series with the stamp they stood at, so that the next
 * window of a series can be cut from them instead of read.
 */
@Component
class SeriesTails {

  /** Tails kept per series: the window before a new version and a few more (a version or two out of order). */
  static int tailKeep(int side) {
    return side + 4;
  }

  private static final int TAIL_LIMIT = 20_000;
  private final Map<Long, SeriesTail> tails = new ConcurrentHashMap<>();

  /** Forgets every kept tail (tests: the next windows are read from the points). */
  void forgetTails() {
    tails.clear();
  }

  /** The kept tail of a series, or null. */
  SeriesTail tail(long series) {
    return tails.get(series);
  }

  /** Forgets the kept tail of a series (its points were written without it). */
  void forget(long series) {
    tails.remove(series);
  }

  void remember(long series, SeriesTail t) {
    if (tails.size() >= TAIL_LIMIT && !tails.containsKey(series)) {
      tails.clear();
    }
    tails.put(series, t);
  }
}
