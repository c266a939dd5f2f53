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
    Series full = new SeriesFixtures().versions("1.", 1, 6, 18.0).versions("1.", 7, 10, 48.0).lowerIsBetter();
    Series beforeBackfill = SeriesFixtures.without(full, "1.7");
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
    Series full = new SeriesFixtures().versions("1.", 1, 7, 18.0).versions("1.", 8, 10, 48.0).lowerIsBetter();
    Step first = detector.detect(SeriesFixtures.without(full, "1.7"), "1.10", defaults).steps().get(0);

    List<Decision> decisions = reconciler.reconcile(detector.detect(full, "1.7", defaults),
        List.of(record(1, first, Regression.Status.OPEN)));

    assertThat(decisions).extracting(d -> d.action() + " " + d.step().baselineVersion() + " → " + d.step().version())
        .containsExactly("REATTRIBUTE 1.7 → 1.8");
  }

  @Test
  void withdrawsAOneSessionBlipOnceTheNextVersionShowsItReverted() {
    SeriesFixtures fixtures = new SeriesFixtures().versions("2.", 1, 10, 100.0).version("2.11", 160.0);
    Series blip = fixtures.lowerIsBetter();
    List<Decision> created = reconciler.reconcile(detector.detect(blip, "2.11", defaults), List.of());
    assertThat(created).extracting(Decision::action).containsExactly(Decision.Action.CREATE);
    RecordedRegression stored = record(7, created.get(0).step(), Regression.Status.OPEN);

    Series reverted = fixtures.version("2.12", 100.0).version("2.13", 100.5).lowerIsBetter();
    List<Decision> later = reconciler.reconcile(detector.detect(reverted, "2.13", defaults), List.of(stored));

    assertThat(later).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.WITHDRAW);
      assertThat(d.regressionId()).isEqualTo(7L);
      assertThat(d.reason()).startsWith("reverted").contains("2.11");
    });
  }

  @Test
  void confirmsTheSameStepOnEveryLaterUploadInsteadOfDuplicatingIt() {
    SeriesFixtures fixtures = new SeriesFixtures().versions("3.", 1, 8, 50.0).versions("3.", 9, 9, 75.0);
    List<RecordedRegression> store = new ArrayList<>();
    for (int v = 10; v <= 20; v++) {
      Series s = fixtures.version("3." + v, 75.0).lowerIsBetter();
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
    Series flat = new SeriesFixtures().versions("4.", 1, 12, 30.0).lowerIsBetter();
    RecordedRegression acknowledged = new RecordedRegression(3, "4.5", "4.6", 30, 40, Regression.Kind.REGRESSION,
        Regression.Status.ACKNOWLEDGED);
    RecordedRegression open = new RecordedRegression(4, "4.8", "4.9", 30, 40, Regression.Kind.REGRESSION,
        Regression.Status.OPEN);

    List<Decision> decisions = reconciler.reconcile(detector.detect(flat, "4.12", defaults),
        List.of(acknowledged, open));

    assertThat(decisions).extracting(Decision::action, Decision::regressionId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Decision.Action.WITHDRAW, 4L));
  }

  @Test
  void reopensAWithdrawnRecordWhenTheStepComesBack() {
    Series series = new SeriesFixtures().versions("5.", 1, 10, 30.0).versions("5.", 11, 16, 45.0).lowerIsBetter();
    RecordedRegression withdrawn = new RecordedRegression(9, "5.10", "5.11", 30, 45, Regression.Kind.REGRESSION,
        Regression.Status.WITHDRAWN);

    List<Decision> decisions = reconciler.reconcile(detector.detect(series, "5.16", defaults), List.of(withdrawn));

    assertThat(decisions).extracting(Decision::action, Decision::regressionId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Decision.Action.REOPEN, 9L));
  }

  private static RecordedRegression record(long id, Step s, Regression.Status status) {
    return new RecordedRegression(id, s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(), status);
  }
}
