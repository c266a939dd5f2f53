package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds series of five samples per version around given levels, with a little session noise. */
final class SeriesFixtures {
  private final Random random = new Random(42);
  private final List<VersionPoint> points = new ArrayList<>();

  SeriesFixtures version(String name, double level) {
    double session = 1 + 0.005 * random.nextGaussian();
    double[] samples = new double[5];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = level * session * (1 + 0.01 * random.nextGaussian());
    }
    points.add(VersionPoint.of(name, samples));
    return this;
  }

  SeriesFixtures versions(String prefix, int from, int to, double level) {
    for (int i = from; i <= to; i++) {
      version(prefix + i, level);
    }
    return this;
  }

  SeriesHistory lowerIsBetter() {
    return new SeriesHistory(Direction.LOWER_IS_BETTER, points);
  }

  SeriesHistory higherIsBetter() {
    return new SeriesHistory(Direction.HIGHER_IS_BETTER, points);
  }

  /** The same series with the version at {@code index} removed, as before it was uploaded. */
  static SeriesHistory without(SeriesHistory s, String version) {
    return new SeriesHistory(s.direction(), s.points().stream().filter(p -> !p.version().equals(version)).toList());
  }
}
