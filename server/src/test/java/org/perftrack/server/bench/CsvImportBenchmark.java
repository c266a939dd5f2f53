package org.perftrack.server.bench;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;

/**
 * How parsing a CSV import grows with rows that repeat one benchmark and metric (one row per measurement):
 * the time of 80,000 rows against 10,000 in the same process. Linear work gives a ratio near 8; copying the
 * growing sample list on each row gave one near 64.
 * Run: {@code bench/run-main.sh org.perftrack.server.bench.CsvImportBenchmark}
 */
public final class CsvImportBenchmark {

  private CsvImportBenchmark() {}

  public static void main(String[] args) throws Exception {
    Class<?> csvRuns = Class.forName("org.perftrack.server.ingest.CsvRuns");
    Method read = csvRuns.getDeclaredMethod("read", java.io.InputStream.class, int.class, long.class);
    read.setAccessible(true);
    Class<?> test = Class.forName("org.perftrack.server.ingest.CsvRunsTest");
    Method rows = test.getDeclaredMethod("repeatedRows", int.class);
    rows.setAccessible(true);
    byte[] small = (byte[]) rows.invoke(null, 10_000);
    byte[] large = (byte[]) rows.invoke(null, 80_000);
    for (int warm = 0; warm < 5; warm++) {
      read.invoke(null, new ByteArrayInputStream(small), 1 << 20, 1_000_000L);
      read.invoke(null, new ByteArrayInputStream(large), 1 << 20, 1_000_000L);
    }
    double smallMs = best(read, small);
    double largeMs = best(read, large);
    System.out.printf("CSV rows repeating one series: 10,000 rows %.1f ms, 80,000 rows %.1f ms, ratio %.1f"
        + " (linear: about 8)%n", smallMs, largeMs, largeMs / smallMs);
  }

  private static double best(Method read, byte[] csv) throws Exception {
    double best = Double.MAX_VALUE;
    for (int i = 0; i < 7; i++) {
      long start = System.nanoTime();
      read.invoke(null, new ByteArrayInputStream(csv), 1 << 20, 1_000_000L);
      best = Math.min(best, (System.nanoTime() - start) / 1e6);
    }
    return best;
  }
}
