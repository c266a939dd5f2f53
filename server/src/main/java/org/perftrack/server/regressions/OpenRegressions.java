package org.perftrack.server.regressions;

import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import org.springframework.stereotype.Service;

/** The open regressions for the home page: newest upload first, and within one upload the worst first. */
@Service
public class OpenRegressions {

  private final RegressionSource regressions;

  OpenRegressions(RegressionSource regressions) {
    this.regressions = regressions;
  }

  /** At most {@code limit} of them, and how many are open in all (up to the list's limit). */
  public record Open(List<Listed> shown, int total) {}

  public Open newestWorstFirst(int limit) {
    List<Listed> open = regressions.list(null, null, List.of("open"), RegressionPages.LIMIT);
    List<Listed> shown = open.stream()
        .sorted(Comparator.comparing((Listed r) -> r.detectedAt().truncatedTo(ChronoUnit.MINUTES)).reversed()
            .thenComparing(Comparator.comparingDouble((Listed r) -> r.severity()).reversed()))
        .limit(limit).toList();
    return new Open(shown, open.size());
  }
}
