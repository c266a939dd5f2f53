package org.perftrack.server.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;

/** The history the upload and import benchmarks send: 10 machines × runs/10 versions, each run 100 results of 5 samples. */
final class BenchmarkRuns {

  static final int RESULTS = 100;
  static final int SAMPLES = 5;

  private BenchmarkRuns() {}

  static List<RunUpload> runs(String product, int runs, Random random) {
    List<RunUpload> list = new ArrayList<>(runs);
    for (int i = 0; i < runs; i++) {
      List<RunUpload.ResultUpload> results = new ArrayList<>(RESULTS);
      for (int b = 0; b < RESULTS; b++) {
        List<Double> s = new ArrayList<>(SAMPLES);
        for (int k = 0; k < SAMPLES; k++) {
          s.add(10 + b + random.nextGaussian() * 0.2);
        }
        results.add(new RunUpload.ResultUpload("bench-" + b, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, s));
      }
      list.add(new RunUpload(UUID.randomUUID().toString(), product, "1." + (i / 10),
          new RunUpload.MachineInfo("machine-" + (i % 10), "Linux", "x86_64", 2, 24000L, Map.of()),
          "posix", null, null, null, Map.of(), results, List.of()));
    }
    return list;
  }

  static byte[] ndjson(List<RunUpload> runs) {
    StringBuilder text = new StringBuilder();
    runs.forEach(r -> text.append(Json.MAPPER.writeValueAsString(r)).append('\n'));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
