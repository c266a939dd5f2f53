package org.perftrack.server.summaries;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

class SummaryHeadlineTest {

  private static Regression member(long id, String machine, Regression.Status status) {
    Instant now = Instant.now();
    return new Regression(id, "cygwin", machine, "write-64b", "time-per-op", "us", Direction.LOWER_IS_BETTER,
        Regression.Kind.REGRESSION, "1.5.19-4", "1.5.24-2", 18, 48, 48 / 18.0, 1e-5, status, now, now, null, null,
        null, List.of(), List.of(), 7L, null, true);
  }

  private static Summary summary(List<Regression> members, List<String> affected) {
    return new Summary(7, "cygwin", "1.5.24-2", List.of("1.5.19-4"), Regression.Status.OPEN, null, null, Instant.now(), Instant.now(),
        affected, List.of("xp-1", "xp-2", "xp-3", "xp-4"), 48 / 18.0, 48 / 18.0, "write-64b", List.of(), List.of(),
        members, "/summaries/7", null, List.of());
  }

  @Test
  void countsTheStandingMembersAndSaysTheWithdrawnOneApart() {
    Summary s = summary(List.of(member(1, "xp-1", Regression.Status.OPEN), member(2, "xp-2", Regression.Status.ACKNOWLEDGED),
        member(3, "xp-3", Regression.Status.WITHDRAWN)), List.of("xp-1", "xp-2"));

    assertThat(s.headline()).isEqualTo("cygwin 1.5.24-2: 2 regressions (1 withdrawn) on 2 of 4 machines, worst write-64b ×2.67");
    assertThat(s.spread()).isEqualTo("2 (1 withdrawn) on 2 of 4 machines");
  }

  @Test
  void oneRegressionIsSingular() {
    Summary s = summary(List.of(member(1, "xp-1", Regression.Status.OPEN)), List.of("xp-1"));

    assertThat(s.headline()).startsWith("cygwin 1.5.24-2: 1 regression on 1 of 4 machines");
  }
}
