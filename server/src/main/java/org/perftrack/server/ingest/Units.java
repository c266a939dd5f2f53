package org.perftrack.server.ingest;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Units of one dimension convert into each other: a series keeps the unit of its first result (its canonical
 * unit) and a later result in another unit of the same dimension is converted on the way in, so that
 * {@code ->Unit(kMicrosecond)} or JMH's {@code -tu us} in the middle of a history keeps one series. Units of
 * different dimensions, or unknown units that differ, do not convert.
 */
final class Units {

  private record Unit(String dimension, double factor) {}

  private static final Map<String, Unit> KNOWN = new HashMap<>();

  static {
    scale("time", 1, "s", "sec", "seconds");
    scale("time", 1e-3, "ms");
    scale("time", 1e-6, "us", "µs", "μs");
    scale("time", 1e-9, "ns");
    scale("time", 60, "min");
    scale("time", 3600, "h");
    // JMH's time modes: time per operation
    scale("time/op", 1, "s/op");
    scale("time/op", 1e-3, "ms/op");
    scale("time/op", 1e-6, "us/op", "µs/op");
    scale("time/op", 1e-9, "ns/op");
    scale("time/op", 60, "min/op");
    // JMH's throughput
    scale("ops/time", 1, "ops/s");
    scale("ops/time", 1e3, "ops/ms");
    scale("ops/time", 1e6, "ops/us", "ops/µs");
    scale("ops/time", 1e9, "ops/ns");
    scale("ops/time", 1.0 / 60, "ops/min");
    scale("ops/time", 1.0 / 3600, "ops/h");
    bytes("");
    bytes("/s");
  }

  private Units() {}

  private static void scale(String dimension, double factor, String... names) {
    for (String name : names) {
      KNOWN.put(name, new Unit(dimension, factor));
    }
  }

  /** B, KB (10^3), KiB (2^10), … and the same per second. */
  private static void bytes(String per) {
    String dimension = "bytes" + per;
    scale(dimension, 1, "B" + per, "bytes" + per);
    String[] si = {"KB", "MB", "GB", "TB"};
    String[] binary = {"KiB", "MiB", "GiB", "TiB"};
    for (int i = 0; i < si.length; i++) {
      scale(dimension, Math.pow(1000, i + 1), si[i] + per);
      scale(dimension, Math.pow(1024, i + 1), binary[i] + per);
    }
  }

  /**
   * What a value in {@code from} must be multiplied by to be in {@code to}: 1 for the same unit, empty when
   * the two do not convert (another dimension, or a unit we do not know).
   */
  static OptionalDouble factor(String from, String to) {
    if (from.equals(to)) {
      return OptionalDouble.of(1);
    }
    Unit a = KNOWN.get(from);
    Unit b = KNOWN.get(to);
    if (a == null || b == null || !a.dimension().equals(b.dimension())) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(a.factor() / b.factor());
  }

  /** The units {@code unit} converts to, for the message when a result's unit does not. */
  static String dimensionOf(String unit) {
    Unit u = KNOWN.get(unit);
    return u == null ? null : u.dimension();
  }
}
