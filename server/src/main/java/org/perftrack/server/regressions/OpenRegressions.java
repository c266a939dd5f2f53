package org.perftrack.server.regressions;

import java.util.Comparator;
import java.util.List;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.springframework.stereotype.Service;

/**
 * The open regressions for the home page: newest first by their exact time, and the worst first among those one upload
 * or import opened together (they share their transaction's time), as home's summaries.
 */
@Service
public class OpenRegressions {

  /** Open regressions read (and counted) at most. */
  static final int MOST = 500;

  private final Regressions regressions;

  OpenRegressions(Regressions regressions) {
    this.regressions = regressions;
  }

  /** At most {@code limit} of them, and how many are open in all (up to the list's limit). */
  public record Open(List<Regression> shown, int total) {}

  public Open newestWorstFirst(int limit) {
    List<Regression> open = regressions.list(null, null, List.of(Regression.Status.OPEN), Regression.Kind.REGRESSION,
        MOST);
    List<Regression> shown = open.stream()
        .sorted(Comparator.comparing(Regression::detectedAt).reversed()
            .thenComparing(Comparator.comparingDouble((Regression r) -> r.severity()).reversed()))
        .limit(limit).toList();
    return new Open(shown, open.size());
  }
}
