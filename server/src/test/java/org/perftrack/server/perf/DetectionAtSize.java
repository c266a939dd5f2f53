package org.perftrack.server.perf;

import java.nio.file.Path;
import java.util.Locale;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.detection.eval.UploadLatencyBenchmark;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What detection costs an upload on a seeded database ({@link SeedDatabase}): {@code onRunStored} for the seeded
 * product's newest run (50 series), timed alone in rolled-back transactions as {@link UploadLatencyBenchmark} does. Run it with
 * {@code bench/pages.sh detect [dir] [rounds]} on databases of different sizes: flat is a ratio of about 1.
 */
public final class DetectionAtSize {

  private DetectionAtSize() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db").toAbsolutePath();
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--perftrack.embedded-db.dir=" + dir, "--server.port=0", "--perftrack.alerts.enabled=false",
            "--logging.level.root=WARN")) {
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      long samples = jdbc.sql("SELECT coalesce(sum(cardinality(samples)), 0) FROM result").query(Long.class).single();
      var run = UploadLatencyBenchmark.newestRun(jdbc, """
          SELECT r.id, r.product_id, r.version_id, r.machine_id FROM run r JOIN product p ON p.id = r.product_id
          WHERE p.name = ? ORDER BY r.received_at DESC LIMIT 1""", SeedDatabase.PRODUCT); // not the latency run's
      var d = UploadLatencyBenchmark.onRunStored(app, dir, run, rounds);
      double[] t = d.times();
      System.out.printf(Locale.ROOT, "%,d samples: onRunStored of the newest run (%d series) median %.1f ms (p10 %.1f,"
          + " p90 %.1f), CPU %.1f ms (Java %.1f + PostgreSQL backends %.1f); load average %s%n", samples,
          run.seriesIds().size(), UploadLatencyBenchmark.pct(t, 50), UploadLatencyBenchmark.pct(t, 10),
          UploadLatencyBenchmark.pct(t, 90), d.cpu(), d.javaCpu(), d.postgresCpu(),
          java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim());
    }
  }
}
