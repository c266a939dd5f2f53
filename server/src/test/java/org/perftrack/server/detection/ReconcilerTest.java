package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ReconcilerTest {
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();
  private final DetectionSettings defaults = DetectionSettings.DEFAULTS;

  @Test
  void reattributesTheStepWhenAnOlderVersionIsBackfilled() {
    SeriesHistory full = new SeriesFixtures().versions("1.", 1, 6, 18.0).versions("1.", 7, 10, 48.0).lowerIsBetter();
    SeriesHistory beforeBackfill = SeriesFixtures.without(full, "1.7");
    Step first = detector.detect(beforeBackfill, "1.10", defaults).steps().get(0);
    assertThat(first.baselineVersion() + " → " + first.version()).isEqualTo("1.6 → 1.8");
    RecordedRegression stored = record(1, first, Regression.Status.OPEN);

    List<Decision> decisions = reconciler.reconcile(detector.detect(full, "1.7", defaults), List.of(stored));

    assertThat(decisions).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.REATTRIBUTE);
      assertThat(d.regressionId()).isEqualTo(1L);
      assertThat(d.step().baselineVersion()).isEqualTo("1.6");
      assertThat(d.step().version()).isEqualTo("1.7");
    });
  }

  @Test
  void backfilledVersionOnTheOldLevelMovesTheBaseline() {
    SeriesHistory full = new SeriesFixtures().versions("1.", 1, 7, 18.0).versions("1.", 8, 10, 48.0).lowerIsBetter();
    Step first = detector.detect(SeriesFixtures.without(full, "1.7"), "1.10", defaults).steps().get(0);

    List<Decision> decisions = reconciler.reconcile(detector.detect(full, "1.7", defaults),
        List.of(record(1, first, Regression.Status.OPEN)));

    assertThat(decisions).extracting(d -> d.action() + " " + d.step().baselineVersion() + " → " + d.step().version())
        .containsExactly("REATTRIBUTE 1.7 → 1.8");
  }

  @Test
  void withdrawsAOneSessionBlipOnceTheNextVersionShowsItReverted() {
    SeriesFixtures fixtures = new SeriesFixtures().versions("2.", 1, 10, 100.0).version("2.11", 160.0);
    SeriesHistory blip = fixtures.lowerIsBetter();
    List<Decision> created = reconciler.reconcile(detector.detect(blip, "2.11", defaults), List.of());
    assertThat(created).extracting(Decision::action).containsExactly(Decision.Action.CREATE);
    RecordedRegression stored = record(7, created.get(0).step(), Regression.Status.OPEN);

    SeriesHistory reverted = fixtures.version("2.12", 100.0).version("2.13", 100.5).lowerIsBetter();
    List<Decision> later = reconciler.reconcile(detector.detect(reverted, "2.13", defaults), List.of(stored));

    assertThat(later).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.WITHDRAW);
      assertThat(d.regressionId()).isEqualTo(7L);
      assertThat(d.reason()).startsWith("reverted").contains("2.11");
    });
  }

  @Test
  void aWithdrawalNamesTheLevelsWithTheSeriesUnitAsPeopleReadThem() {
    SeriesFixtures fixtures = new SeriesFixtures().versions("2.", 1, 10, 3.18e9).version("2.11", 1.092e9);
    SeriesHistory blip = fixtures.higherIsBetter();
    List<Decision> created = reconciler.reconcile(detector.detect(blip, "2.11", defaults), List.of(), "B/s");
    RecordedRegression stored = record(7, created.get(0).step(), Regression.Status.OPEN);

    SeriesHistory reverted = fixtures.version("2.12", 3.18e9).version("2.13", 3.181e9).higherIsBetter();
    List<Decision> later = reconciler.reconcile(detector.detect(reverted, "2.13", defaults), List.of(stored), "B/s");

    assertThat(later).singleElement().extracting(Decision::reason).asString()
        .matches("reverted: versions 2\\.12\\.\\.2\\.13 are back at 3\\.\\d+ GB/s \\(baseline 3\\.\\d+ GB/s\\), .*")
        .doesNotContain("e+09");
  }

  @Test
  void aReasonStoredWithBareNumbersReadsWithTheUnitAndOneWithItsUnitAsStored() {
    assertThat(WithdrawalReason.worded("measured again, 4.11 is back at 3.180e+09 (baseline 3.181e+09, recorded"
        + " 1.092e+09), so the first session was a bad one", "B/s"))
        .isEqualTo("measured again, 4.11 is back at 3.18 GB/s (baseline 3.181 GB/s, recorded 1.092 GB/s), so the"
            + " first session was a bad one");
    assertThat(WithdrawalReason.worded("not persistent: the versions after 4.11 did not stay at 160.0"
        + " (between-session noise ±0.5 %)", "us"))
        .as("a reason stored with the old spacing reads as the pages write percentages")
        .isEqualTo("not persistent: the versions after 4.11 did not stay at 160 us (between-session noise ±0.5%)");
    String today = "reverted: versions 4.12..4.13 are back at 100 us (baseline 100 us), so 4.11 was one unusual session";
    assertThat(WithdrawalReason.worded(today, "us")).isEqualTo(today);
    assertThat(WithdrawalReason.worded("reverted: versions 4.12..4.13 are back at 0.001983 (baseline 0.002),"
        + " so 4.11 was one unusual session", "1")).contains("back at 0.001983 (baseline 0.002)");
    assertThat(WithdrawalReason.worded("secondary metric: shown as a hint on its benchmark's regression", "B/s"))
        .isEqualTo("secondary metric: shown as a hint on its benchmark's regression");
    assertThat(WithdrawalReason.worded(null, "B/s")).isNull();
  }

  @Test
  void confirmsTheSameStepOnEveryLaterUploadInsteadOfDuplicatingIt() {
    SeriesFixtures fixtures = new SeriesFixtures().versions("3.", 1, 8, 50.0).versions("3.", 9, 9, 75.0);
    List<RecordedRegression> store = new ArrayList<>();
    for (int v = 10; v <= 20; v++) {
      SeriesHistory s = fixtures.version("3." + v, 75.0).lowerIsBetter();
      for (Decision d : reconciler.reconcile(detector.detect(s, "3." + v, defaults), store)) {
        if (d.action() == Decision.Action.CREATE) {
          store.add(record(store.size() + 1, d.step(), Regression.Status.OPEN));
        } else {
          assertThat(d.action()).isEqualTo(Decision.Action.CONFIRM);
        }
      }
    }
    assertThat(store).singleElement().extracting(RecordedRegression::version).isEqualTo("3.9");
  }

  @Test
  void aTriagedRegressionKeepsItsStatusWhenTheStepGoesAway() {
    SeriesHistory flat = new SeriesFixtures().versions("4.", 1, 12, 30.0).lowerIsBetter();
    RecordedRegression acknowledged = new RecordedRegression(3, "4.5", "4.6", 30, 40, Regression.Kind.REGRESSION,
        Regression.Status.ACKNOWLEDGED, true);
    RecordedRegression open = new RecordedRegression(4, "4.8", "4.9", 30, 40, Regression.Kind.REGRESSION,
        Regression.Status.OPEN, true);

    List<Decision> decisions = reconciler.reconcile(detector.detect(flat, "4.12", defaults),
        List.of(acknowledged, open));

    assertThat(decisions).extracting(Decision::action, Decision::regressionId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Decision.Action.WITHDRAW, 4L));
  }

  @Test
  void reopensAWithdrawnRecordWhenTheStepComesBack() {
    SeriesHistory series = new SeriesFixtures().versions("5.", 1, 10, 30.0).versions("5.", 11, 16, 45.0).lowerIsBetter();
    RecordedRegression withdrawn = new RecordedRegression(9, "5.10", "5.11", 30, 45, Regression.Kind.REGRESSION,
        Regression.Status.WITHDRAWN, true);

    List<Decision> decisions = reconciler.reconcile(detector.detect(series, "5.16", defaults), List.of(withdrawn));

    assertThat(decisions).extracting(Decision::action, Decision::regressionId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Decision.Action.REOPEN, 9L));
  }

  /**
   * Issue 10: read-64b ×7.7 was flagged at once and withdrawn after the next upload, because the next
   * session on the loaded machine ran everything faster and the levels of different sessions looked "back".
   * The step was measured interleaved with its baseline; only interleaved evidence may withdraw it.
   */
  @Test
  void aStepSeenInterleavedIsNotWithdrawnBecauseTheNextSessionRanFaster() {
    double[] base = {100, 101, 99, 100.5, 100.2};
    double[] base2 = {100.3, 100.8, 99.4, 100.1, 99.9};
    double[] slow = {770, 775, 768, 772, 771};
    List<BatchRun> runs = new ArrayList<>(List.of(new BatchRun("a", "6.1", base), new BatchRun("a", "6.2", base2),
        new BatchRun("a", "6.3", slow)));
    SeriesHistory first = new SeriesHistory(Direction.LOWER_IS_BETTER,
        List.of(VersionPoint.of("6.1", base), VersionPoint.of("6.2", base2), VersionPoint.of("6.3", slow)), runs);
    List<Decision> created = reconciler.reconcile(detector.detect(first, "6.3", defaults), List.of());
    assertThat(created).extracting(d -> d.action() + " " + d.step().version()).containsExactly("CREATE 6.3");
    RecordedRegression stored = record(1, created.get(0).step(), Regression.Status.OPEN);

    double[] slowAgain = scaled(slow, 0.25);
    double[] next = scaled(slow, 0.252);
    runs.add(new BatchRun("b", "6.3", slowAgain));
    runs.add(new BatchRun("b", "6.4", next));
    List<VersionPoint> points = List.of(VersionPoint.of("6.1", base), VersionPoint.of("6.2", base2),
        VersionPoint.of("6.3", concat(slow, slowAgain)), VersionPoint.of("6.4", next));
    DetectionResult later = detector.detect(new SeriesHistory(Direction.LOWER_IS_BETTER, points, runs), "6.4", defaults);

    assertThat(reconciler.reconcile(later, List.of(stored))).extracting(Decision::action)
        .doesNotContain(Decision.Action.WITHDRAW);
    assertThat(WithdrawalReason.contradiction(stored, later.withSteps(List.of()), "us"))
        .as("even when no step is seen there, the interleaved pair still shows it").isNull();
    DetectionResult levelsOnly = detector.detect(new SeriesHistory(Direction.LOWER_IS_BETTER, points), "6.4", defaults);
    assertThat(WithdrawalReason.contradiction(stored, levelsOnly.withSteps(List.of()), "us"))
        .as("the same levels without the interleaved samples do look reverted").startsWith("reverted");
  }

  @Test
  void confirmsARecordReportedAtTheNewestVersionWhenTheNextVersionShowsTheNewLevel() {
    SeriesHistory full = new SeriesFixtures().versions("6.", 1, 8, 18.0).versions("6.", 9, 10, 48.0).lowerIsBetter();
    Step atNewest = detector.detect(SeriesFixtures.without(full, "6.10"), "6.9", defaults).steps().get(0);
    assertThat(atNewest.confirmed()).isFalse();

    List<Decision> decisions = reconciler.reconcile(detector.detect(full, "6.10", defaults),
        List.of(record(5, atNewest, Regression.Status.OPEN)));

    assertThat(decisions).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.CONFIRM);
      assertThat(d.confirms()).isTrue();
      assertThat(d.step().confirmed()).isTrue();
    });
  }

  private static double[] scaled(double[] samples, double factor) {
    return java.util.Arrays.stream(samples).map(v -> v * factor).toArray();
  }

  private static double[] concat(double[] a, double[] b) {
    double[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static RecordedRegression record(long id, Step s, Regression.Status status) {
    return new RecordedRegression(id, s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(), status,
        s.confirmed(), s.firstSuspect(), s.lastSuspect());
  }

  private static DetectionResult judged(Step... steps) {
    List<String> versions = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      versions.add("1." + i);
    }
    return new DetectionResult(List.of(steps), "1.12", "1.23", versions, new double[24], 0.06, 12, 0.04,
        new double[24], java.util.Map.of());
  }

  /** Later versions place a step reported within a range: the same record narrows, nothing is withdrawn or opened. */
  @Test
  void aLaterVersionNarrowingTheRangeUpdatesTheSameRecord() {
    RecordedRegression ranged = record(3, new Step("1.11", "1.12", 100, 110, 1.1, 1e-5, Regression.Kind.REGRESSION,
        "pooled", true, "1.9", "1.12"), Regression.Status.OPEN);

    List<Decision> atFirstSuspect = reconciler.reconcile(judged(new Step("1.8", "1.9", 100, 110, 1.1, 1e-6,
        Regression.Kind.REGRESSION, "pooled", true)), List.of(ranged));
    List<Decision> narrower = reconciler.reconcile(judged(new Step("1.11", "1.12", 100, 110, 1.1, 1e-6,
        Regression.Kind.REGRESSION, "pooled", true, "1.11", "1.12")), List.of(ranged));

    // three versions from its likeliest place, but one of its suspects: the record follows
    assertThat(atFirstSuspect).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.REATTRIBUTE);
      assertThat(d.regressionId()).isEqualTo(3L);
      assertThat(d.step().ranged()).isFalse();
      assertThat(d.reason()).as("one pair of parentheses, each place said whole")
          .isEqualTo("placed at 1.9; it was between 1.9 and 1.12 (most likely 1.12)");
    });
    assertThat(narrower).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.CONFIRM);
      assertThat(d.regressionId()).isEqualTo(3L);
      assertThat(d.step().firstSuspect() + ".." + d.step().lastSuspect()).isEqualTo("1.11..1.12");
      assertThat(d.reason()).isEqualTo("placed between 1.11 and 1.12 (most likely 1.12); it was between 1.9 and 1.12"
          + " (most likely 1.12)");
    });
  }

  /** A record placed exactly that later data places the same way has nothing to say in its history. */
  @Test
  void anExactStepConfirmedAtItsVersionHasNoReason() {
    RecordedRegression exact = record(4, new Step("1.14", "1.15", 100, 110, 1.1, 1e-5, Regression.Kind.REGRESSION,
        "levels", true), Regression.Status.OPEN);

    assertThat(reconciler.reconcile(judged(new Step("1.14", "1.15", 100, 111, 1.11, 1e-6, Regression.Kind.REGRESSION,
        "levels", true)), List.of(exact))).singleElement().satisfies(d -> {
          assertThat(d.action()).isEqualTo(Decision.Action.CONFIRM);
          assertThat(d.reason()).isNull();
        });
  }
}
