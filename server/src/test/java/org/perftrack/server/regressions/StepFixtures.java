package org.perftrack.server.regressions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/** A history with one clear step, as the agent would upload it: what the regression pages need to exist. */
public final class StepFixtures {

  public static final List<String> VERSIONS = List.of("1.5.10-1", "1.5.11-1", "1.5.12-1", "1.5.13-1", "1.5.14-1",
      "1.5.15-1", "1.5.16-1", "1.5.17-1", "1.5.18-1", "1.5.19-4", "1.5.24-2", "1.5.25-1", "1.5.26-1", "1.5.27-1",
      "1.5.28-1", "1.5.29-1", "1.5.30-1", "1.5.31-1", "1.5.32-1", "1.5.33-1");
  public static final String STEP = "1.5.24-2";

  private StepFixtures() {}

  /**
   * write-64b steps from 18 µs to 48 µs at {@link #STEP} (seed 003) with its context switches ×400;
   * fork stays flat. The runs from the step on report another antivirus (an environment difference).
   */
  public static List<RunUpload> history(String product, String machine, String benchmark) {
    List<RunUpload> runs = new ArrayList<>();
    for (int i = 0; i < VERSIONS.size(); i++) {
      boolean after = i >= VERSIONS.indexOf(STEP);
      double level = after ? 48 : 18;
      double wiggle = 1 + ((i * 7) % 5 - 2) * 0.002;
      runs.add(new RunUpload(UUID.randomUUID().toString(), product, VERSIONS.get(i),
          new MachineInfo(machine, "Windows XP SP2", "AMD64 3200+", 1, 1024L,
              Map.of("antivirus", after ? "NOD32 2.7" : "NOD32 2.5")),
          "posix", null, null, null, Map.of("compiler", "gcc 3.4.4"),
          List.of(result(benchmark, "time-per-op", "us", level * wiggle),
              result(benchmark, "ctx-switches-per-op", "count", (after ? 400 : 1) * wiggle),
              result("fork", "time-per-op", "us", 75 * wiggle)),
          List.of()));
    }
    return runs;
  }

  private static ResultUpload result(String benchmark, String metric, String unit, double level) {
    List<Double> samples = List.of(level * 0.998, level * 1.001, level, level * 1.002, level * 0.999);
    return new ResultUpload(benchmark, metric, unit, RunUpload.LOWER_IS_BETTER, samples);
  }
}
