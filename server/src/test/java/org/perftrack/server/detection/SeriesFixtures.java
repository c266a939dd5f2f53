package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds series of five samples per version around given levels, with a little session noise. */
final class SeriesFixtures {
  private final Random random = new Random(42);
  private final List<Point> points = new ArrayList<>();

  SeriesFixtures version(String name, double level) {
    double session = 1 + 0.005 * random.nextGaussian();
    double[] samples = new double[5];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = level * session * (1 + 0.01 * random.nextGaussian());
    }
    points.add(Point.of(name, samples));
    return this;
  }

  SeriesFixtures versions(String prefix, int from, int to, double level) {
    for (int i = from; i <= to; i++) {
      version(prefix + i, level);
    }
    return this;
  }

  Series lowerIsBetter() {
    return new Series(Direction.LOWER_IS_BETTER, points);
  }

  Series higherIsBetter() {
    return new Series(Direction.HIGHER_IS_BETTER, points);
  }

  /** The same series with the version at {@code index} removed, as before it was uploaded. */
  static Series without(Series s, String version) {
    return new Series(s.direction(), s.points().stream().filter(p -> !p.version().equals(version)).toList());
  }
}
