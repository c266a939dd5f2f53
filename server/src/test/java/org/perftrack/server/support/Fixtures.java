package org.perftrack.server.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/** Runs to upload in tests. */
public final class Fixtures {

  private static final AtomicInteger COUNTER = new AtomicInteger();

  private Fixtures() {}

  /** A name no other test uses, so tests sharing one database stay apart. */
  public static String unique(String prefix) {
    return prefix + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  public static RunUpload run(String product, String version, String machine, ResultUpload... results) {
    return new RunUpload(UUID.randomUUID().toString(), product, version,
        new MachineInfo(machine, "Windows XP SP2", "AMD64 3200+", 1, 1024L, Map.of("antivirus", "NOD32")),
        "posix", null, null, null, Map.of("compiler", "gcc 3.4.4"), List.of(results), List.of());
  }

  /**
   * A history of 24 versions 1.0 .. 1.23 of {@code write-64b} whose level steps 10 % up at 1.12 in 6 % noise (seed 6): a
   * step clearly there but placed only within two versions (suspects 1.11 .. 1.12).
   */
  public static List<RunUpload> rangedStep(String product, String machine) {
    Random random = new Random(6);
    List<RunUpload> runs = new ArrayList<>();
    for (int v = 0; v < 24; v++) {
      double level = v < 12 ? 100 : 110;
      List<Double> samples = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        samples.add(Math.round(level * (1 + 0.06 * random.nextGaussian()) * 100) / 100.0);
      }
      runs.add(run(product, "1." + v, machine,
          new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples)));
    }
    return runs;
  }

  public static ResultUpload result(String benchmark, double... samples) {
    List<Double> s = new ArrayList<>();
    for (double d : samples) {
      s.add(d);
    }
    return new ResultUpload(benchmark, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, s);
  }

  /** Five samples around {@code level}: one session's offset (0.5 %) and each sample's own noise (1 %). */
  public static List<Double> sessionSamples(java.util.Random random, double level) {
    double session = 1 + 0.005 * random.nextGaussian();
    return java.util.stream.IntStream.range(0, 5)
        .mapToObj(i -> level * session * (1 + 0.01 * random.nextGaussian())).toList();
  }

  public static String json(Object value) {
    return Json.MAPPER.writeValueAsString(value);
  }

  /** The run as a mutable JSON map, to break one field at a time. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> asMap(RunUpload run) {
    return Json.MAPPER.readValue(json(run), LinkedHashMap.class);
  }
}
