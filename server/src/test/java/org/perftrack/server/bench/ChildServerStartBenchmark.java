package org.perftrack.server.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.ServerProcess;

/**
 * What a child server's start costs the tests (until its health check answers, and its stop) on a new data directory
 * (initdb and every migration) against one copied from {@link MigratedData} (the copy included), in alternating
 * order in one JVM, so that a loaded machine weighs on both alike. The template's own cost, paid once per test JVM,
 * is printed apart.
 *
 * <p>{@code bench/run-main.sh org.perftrack.server.bench.ChildServerStartBenchmark [rounds, default 3]}
 */
public final class ChildServerStartBenchmark {

  private ChildServerStartBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path dir = Files.createTempDirectory("perftrack-start-bench-");
    long t0 = System.nanoTime();
    MigratedData.copyTo(dir.resolve("warm"));
    long template = System.nanoTime() - t0;
    List<Long> fresh = new ArrayList<>();
    List<Long> copied = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      boolean freshFirst = i % 2 == 0;
      for (boolean isFresh : freshFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        Path data = dir.resolve((isFresh ? "fresh-" : "copy-") + i);
        long start = System.nanoTime();
        try (ServerProcess server = ServerProcess.start(isFresh ? data : MigratedData.copyTo(data),
            dir.resolve(data.getFileName() + ".log"), "--perftrack.alerts.enabled=false")) {
          server.terminate(Duration.ofSeconds(60));
        }
        long took = System.nanoTime() - start;
        (isFresh ? fresh : copied).add(took);
        System.out.printf("round %d %-5s %6.1f s%n", i + 1, isFresh ? "fresh" : "copy", seconds(took));
      }
    }
    double f = seconds(median(fresh));
    double c = seconds(median(copied));
    System.out.printf("median start+stop: fresh %.1f s, copy %.1f s, saving %.1f s a start (%.0f %%); "
        + "template once per JVM %.1f s (%d rounds)%n", f, c, f - c, 100 * (f - c) / f, seconds(template), rounds);
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
