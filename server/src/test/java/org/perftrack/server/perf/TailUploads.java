package org.perftrack.server.perf;

import static org.perftrack.server.perf.SeedDatabase.BENCHMARKS;
import static org.perftrack.server.perf.SeedDatabase.METRICS;
import static org.perftrack.server.perf.SeedDatabase.PRODUCT;
import static org.perftrack.server.perf.SeedDatabase.TAIL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.wire.RunUpload;

/** The seeded history's last versions, uploaded through the real ingest service so that detection judges them. */
record TailUploads(int machines, int versions, int samples) {

  /** The last versions of every machine through the ingest service: detection judges them. */
  long ingest(IngestService ingest) {
    Random random = new Random(7);
    long total = 0;
    int regressions = 0;
    for (int v = versions - TAIL; v < versions; v++) {
      for (int m = 0; m < machines; m++) {
        List<RunUpload.ResultUpload> results = new ArrayList<>();
        int s = 0;
        for (String benchmark : BENCHMARKS) {
          for (String metric : METRICS) {
            boolean bandwidth = benchmark.startsWith("pipe-bw") && metric.equals("time-per-op");
            double value = SeedDatabase.Seeder.value(m, s++, v, versions);
            List<Double> xs = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
              xs.add(value * (1 + random.nextGaussian() * 0.01));
            }
            results.add(new RunUpload.ResultUpload(benchmark, bandwidth ? "bandwidth" : metric,
                bandwidth ? "MB/s" : metric.equals("time-per-op") ? "us" : "count",
                bandwidth ? RunUpload.HIGHER_IS_BETTER : RunUpload.LOWER_IS_BETTER, xs));
            total += samples;
          }
        }
        String name = String.format(Locale.ROOT, "perf-m%02d", m + 1);
        RunUpload run = new RunUpload(UUID.nameUUIDFromBytes(("perf-" + m + "-" + v).getBytes()).toString(),
            PRODUCT, SeedDatabase.Seeder.versionName(v), machineInfo(m, v >= versions - 3),
            "posix", null, null, null, java.util.Map.of("compiler", "gcc 4." + v % 9), results, List.of());
        regressions += ingest.ingest(run).regressions().size();
      }
    }
    System.out.printf(Locale.ROOT, "ingested the last %d versions of %d machines; detection flagged %d regressions%n",
        TAIL, machines, regressions);
    return total;
  }

  /** As the COPY'd machines describe themselves; machine 1 updated its antivirus with the step. */
  private static RunUpload.MachineInfo machineInfo(int m, boolean afterStep) {
    String antivirus = m % 3 == 0 ? "NOD32" : "none";
    return new RunUpload.MachineInfo(String.format(Locale.ROOT, "perf-m%02d", m + 1),
        "Windows " + (m % 2 == 0 ? "XP SP2" : "7 SP1"), "CPU model " + m % 4, 1 + m % 4, 1024L << (m % 3),
        java.util.Map.of("antivirus", m == 0 && afterStep ? "NOD32 3.0" : antivirus));
  }
}
