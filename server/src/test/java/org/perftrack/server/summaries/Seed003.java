package org.perftrack.server.summaries;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/** Seed 003 as one run: write() of 64 bytes at {@code us} µs with {@code switches} context switches per call. */
public final class Seed003 {

  private Seed003() {}

  public static RunUpload run(String product, String machine, String version, double us, double switches) {
    return new RunUpload(UUID.randomUUID().toString(), product, version,
        new MachineInfo(machine, "Windows XP SP2", "AMD64 3200+", 1, 1024L, Map.of()), "posix", null, null, null,
        Map.of(), List.of(
            new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
                List.of(us * 0.998, us * 1.001, us, us * 1.002, us * 0.999)),
            new ResultUpload("write-64b", "ctx-switches-per-op", "count", RunUpload.LOWER_IS_BETTER,
                List.of(switches * 0.99, switches * 1.01, switches, switches * 1.02, switches * 0.98))),
        List.of());
  }

}
