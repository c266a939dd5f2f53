package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A small step in large noise in the middle of a history: one version on each side cannot show it, all the
 * versions of its segment can. Replayed upload by upload through the detector and the reconciler, as the server
 * judges.
 */
class PooledStepTest {
  private static final int VERSIONS = 30;
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();

  @Test
  void findsATwelvePercentStepInSixPercentNoiseOnceTheVersionsAfterItShowIt() {
    Replay replay = replay(levels(i -> i >= 10 ? 1.12 : 1.0), 0.06, 7);

    assertThat(replay.open()).singleElement().satisfies(r -> {
      assertThat(r.baselineVersion() + " → " + r.version()).isEqualTo("1.9 → 1.10");
      assertThat(r.kind()).isEqualTo(Regression.Kind.REGRESSION);
    });
    // opened on the pooled evidence, once four versions after it were in
    assertThat(replay.created).singleElement().asString().contains("all versions on each side");
    assertThat(replay.firstOpenAt).isGreaterThanOrEqualTo(13);
    assertThat(replay.withdrawn).isZero();
  }

  @Test
  void aSlowDriftIsNotAStepHoweverManyVersionsArePooled() {
    Replay replay = replay(levels(i -> Math.exp(0.004 * i)), 0.01, 3);

    assertThat(replay.open()).isEmpty();
  }

  @Test
  void noiseAloneRaisesNothing() {
    for (long seed = 1; seed <= 5; seed++) {
      assertThat(replay(levels(i -> 1.0), 0.06, seed).open()).as("seed %d", seed).isEmpty();
    }
  }

  /** A pooled step before the range an upload re-judges keeps its record; records there are not withdrawn. */
  @Test
  void aStepFoundBeforeTheRejudgedRangeMatchesItsRecordInsteadOfOpeningAnother() {
    List<String> versions = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      versions.add("1." + i);
    }
    Step pooled = new Step("1.9", "1.10", 100, 112, 1.12, 1e-5, Regression.Kind.REGRESSION, "pooled", true);
    DetectionResult result = new DetectionResult(List.of(pooled), "1.18", "1.29", versions, new double[30], 0.04, 12,
        0.04, new double[30], java.util.Map.of());
    RecordedRegression same = new RecordedRegression(1, "1.9", "1.10", 100, 112, Regression.Kind.REGRESSION,
        Regression.Status.OPEN, true);
    RecordedRegression earlier = new RecordedRegression(2, "1.3", "1.4", 100, 130, Regression.Kind.REGRESSION,
        Regression.Status.OPEN, true);

    List<Decision> decisions = reconciler.reconcile(result, List.of(same, earlier));

    assertThat(decisions).singleElement().satisfies(d -> {
      assertThat(d.action()).isEqualTo(Decision.Action.CONFIRM);
      assertThat(d.regressionId()).isEqualTo(1L);
    });
  }

  private interface Level {
    double at(int version);
  }

  private static double[] levels(Level level) {
    double[] out = new double[VERSIONS];
    for (int i = 0; i < VERSIONS; i++) {
      out[i] = 100 * level.at(i);
    }
    return out;
  }

  private static final class Replay {
    final List<RecordedRegression> records = new ArrayList<>();
    final List<String> created = new ArrayList<>();
    int withdrawn;
    int firstOpenAt = -1;

    List<RecordedRegression> open() {
      return records.stream().filter(r -> r.status() == Regression.Status.OPEN).toList();
    }
  }

  /** Five samples per version with gaussian noise {@code cv}, uploaded in version order. */
  private Replay replay(double[] levels, double cv, long seed) {
    Random random = new Random(seed);
    List<VersionPoint> points = new ArrayList<>();
    Replay replay = new Replay();
    for (int v = 0; v < levels.length; v++) {
      double[] samples = new double[5];
      for (int s = 0; s < samples.length; s++) {
        samples[s] = levels[v] * (1 + cv * random.nextGaussian());
      }
      points.add(VersionPoint.of("1." + v, samples));
      DetectionResult result = detector.detect(new SeriesHistory(Direction.LOWER_IS_BETTER, List.copyOf(points)), "1." + v,
          DetectionSettings.DEFAULTS);
      for (Decision d : reconciler.reconcile(result, List.copyOf(replay.records))) {
        apply(replay, d);
        if (d.action() == Decision.Action.CREATE) {
          replay.created.add(d.step().evidence());
        }
      }
      if (replay.firstOpenAt < 0 && !replay.open().isEmpty()) {
        replay.firstOpenAt = v;
      }
    }
    return replay;
  }

  private static void apply(Replay replay, Decision d) {
    List<RecordedRegression> records = replay.records;
    Step s = d.step();
    switch (d.action()) {
      case CREATE -> records.add(new RecordedRegression(records.size() + 1, s.baselineVersion(), s.version(),
          s.baselineValue(), s.value(), s.kind(), Regression.Status.OPEN, s.confirmed()));
      case WITHDRAW -> {
        replay.withdrawn++;
        records.replaceAll(r -> r.id() != d.regressionId() ? r : new RecordedRegression(r.id(), r.baselineVersion(),
            r.version(), r.baselineValue(), r.value(), r.kind(), Regression.Status.WITHDRAWN, r.confirmed()));
      }
      default -> records.replaceAll(r -> r.id() != d.regressionId() ? r : new RecordedRegression(r.id(),
          s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(), Regression.Status.OPEN,
          r.confirmed() || s.confirmed()));
    }
  }
}
