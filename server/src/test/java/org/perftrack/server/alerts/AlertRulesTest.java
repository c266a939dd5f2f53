package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/** The small rules behind the mails, without Spring: patterns, thresholds, subject, numbers, backoff. */
class AlertRulesTest {

  @Test
  void patternsTakeStarAndQuestionMarkAndIgnoreCase() {
    assertThat(Glob.matches("xp-lab-*", "XP-LAB-01")).isTrue();
    assertThat(Glob.matches("pipe-bw/?024", "pipe-bw/1024")).isTrue();
    assertThat(Glob.matches("pipe-bw/?024", "pipe-bw/10240")).isFalse();
    assertThat(Glob.matches("a.c", "abc")).as("a dot is a dot, not a regex").isFalse();
    assertThat(Glob.matches(null, "anything")).isTrue();
  }

  @Test
  void aMinimumChangeAdmitsRegressionsAtOrAboveIt() {
    Subscription tenPercent = subscription(10);
    assertThat(tenPercent.wants(item("lower_is_better", 100, 110))).isTrue();
    assertThat(tenPercent.wants(item("lower_is_better", 100, 109))).isFalse();
    assertThat(tenPercent.wants(item("higher_is_better", 100, 50))).as("throughput halved: 50 %").isTrue();
  }

  @Test
  void theSubjectCountsTheRegressionsAndNamesTheWorst() {
    var write = item("lower_is_better", 18, 48);
    var pipe = item("higher_is_better", 100, 20);

    assertThat(AlertService.subject(List.of(write))).isEqualTo(
        "[perftrack] cygwin 1.5.24-2 on xp-lab-01: 1 regression (write-64b ×2.67)");
    assertThat(AlertService.subject(List.of(write, pipe))).as("bandwidth ÷5 is worse than time ×2.67")
        .isEqualTo("[perftrack] cygwin 1.5.24-2 on xp-lab-01: 2 regressions (pipe-bw/512 5× less)");
  }

  @Test
  void numbersAreShortAndStable() {
    assertThat(MailFormat.quantity(48.04, "us")).isEqualTo("48.04 us");
    assertThat(MailFormat.quantity(0.004, "1")).as("a pure number has no unit").isEqualTo("0.004");
    assertThat(MailFormat.quantity(75000, "ns")).isEqualTo("75,000 ns");
    assertThat(MailFormat.quantity(3_180_000_000.0, "B/s")).as("bytes take their prefix").isEqualTo("3.18 GB/s");
    assertThat(MailFormat.ratio(0.3434)).as("below 1: how many times less").isEqualTo("2.91× less");
    assertThat(MailFormat.ratio(400.4)).isEqualTo("×400");
    assertThat(MailFormat.ratio(3000.0)).as("no decimals on a large ratio").isEqualTo("×3000");
    assertThat(MailFormat.ratio(4.70)).isEqualTo("×4.7");
    assertThat(MailFormat.confidence(0.0004)).isEqualTo("p < 0.001");
    assertThat(MailFormat.confidence(0.0123)).isEqualTo("p = 0.012");
  }

  @Test
  void theWaitDoublesAfterEachFailureUpToTheCap() {
    var props = new AlertsProperties(true, List.of(" a@x.org ", "", "a@x.org"), "p <p@x>", Duration.ofSeconds(2), 20,
        Duration.ofSeconds(5), Duration.ofMinutes(10), Duration.ofMinutes(5), 10, LocalTime.of(7, 0), Duration.ofDays(90),
        Duration.ofMinutes(2));
    assertThat(props.recipients()).containsExactly("a@x.org");
    assertThat(props.backoffAfter(1)).isEqualTo(Duration.ofSeconds(5));
    assertThat(props.backoffAfter(2)).isEqualTo(Duration.ofSeconds(10));
    assertThat(props.backoffAfter(7)).isEqualTo(Duration.ofSeconds(320));
    assertThat(props.backoffAfter(8)).isEqualTo(Duration.ofMinutes(10));
    assertThat(props.backoffAfter(60)).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void onlyWhatAnImmediateSubscriberWantsCountsAsMailed() {
    List<Regression> steps = List.of(item("lower_is_better", 100, 200), item("lower_is_better", 100, 105));
    Subscription digest = new Subscription(2, "d@x.org", "user", null, null, null, 0, "digest", "t", "me", Instant.now());

    assertThat(AlertService.mailedOf(List.of(), steps)).as("no recipients: nothing is mailed").isZero();
    assertThat(AlertService.mailedOf(List.of(digest), steps)).as("the digest is not a mail of its own").isZero();
    assertThat(AlertService.mailedOf(List.of(digest, subscription(10)), steps)).isEqualTo(1);
    assertThat(AlertService.mailedOf(List.of(subscription(0)), steps)).isEqualTo(2);
  }

  private static Subscription subscription(double minChange) {
    return new Subscription(1, "a@x.org", "user", null, null, null, minChange, "immediate", "t", "me", Instant.now());
  }

  private static Regression item(String direction, double base, double value) {
    boolean time = direction.equals("lower_is_better");
    return new Regression(1, "cygwin", "xp-lab-01", time ? "write-64b" : "pipe-bw/512", time ? "time-per-op" : "bandwidth",
        time ? "us" : "MB/s", Direction.of(direction), Regression.Kind.REGRESSION, "1.5.19-4", "1.5.24-2", base, value,
        value / base, 0.0004, Regression.Status.OPEN, Instant.now(), Instant.now(), null, null, null, List.of(),
        List.of(), null, null, true);
  }
}
