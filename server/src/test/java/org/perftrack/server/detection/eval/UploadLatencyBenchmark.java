package org.perftrack.server.detection.eval;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.perftrack.formats.Json;
import org.perftrack.formats.RunUpload;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.detection.DetectionService;
import org.perftrack.server.detection.StoredRun;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What detection adds to an upload: a machine whose 100 series already hold 200 versions (5 samples
 * each), then (a) {@code DetectionService#onRunStored} alone for the newest run, in a rolled-back
 * transaction (SQL + statistics + writes), and (b) whole uploads of new versions over HTTP.
 * Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.UploadLatencyBenchmark [versions] [metrics]}
 */
public final class UploadLatencyBenchmark {
  private static final String TOKEN = "bench-token-0123456789";

  public static void main(String[] args) throws Exception {
    int versions = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int metrics = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    Path dir = Files.createTempDirectory("perftrack-detection-bench");
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("db"),
            "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=bench", "--logging.level.root=WARN")) {
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      HttpClient http = HttpClient.newHttpClient();
      Random random = new Random(5);
      double[] levels = new double[metrics];
      Arrays.setAll(levels, i -> 10 + random.nextInt(1000));
      for (int v = 1; v <= versions; v++) {
        post(http, base, run(v, levels, random));
      }
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      jdbc.sql("ANALYZE").update(); // as autovacuum would have done long before a series reaches 200 versions
      StoredRun newest = newestRun(jdbc);
      TransactionTemplate tx = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
      DetectionService detection = app.getBean(DetectionService.class);
      double[] alone = new double[30];
      for (int i = 0; i < alone.length + 10; i++) {
        long start = System.nanoTime();
        tx.executeWithoutResult(status -> {
          detection.onRunStored(newest);
          status.setRollbackOnly();
        });
        if (i >= 10) {
          alone[i - 10] = (System.nanoTime() - start) / 1e6;
        }
      }
      double[] uploads = new double[20];
      for (int i = 0; i < uploads.length; i++) {
        RunUpload run = run(versions + 1 + i, levels, random);
        long start = System.nanoTime();
        post(http, base, run);
        uploads[i] = (System.nanoTime() - start) / 1e6;
      }
      System.out.printf(Locale.ROOT, "%d metrics x %d versions x 5 samples: onRunStored median %.1f ms (p90 %.1f),"
          + " whole upload over HTTP median %.1f ms (p90 %.1f)%n", metrics, versions, pct(alone, 50),
          pct(alone, 90), pct(uploads, 50), pct(uploads, 90));
    }
  }

  private static double pct(double[] values, int p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  private static StoredRun newestRun(JdbcClient jdbc) {
    Map<String, Object> run = jdbc.sql("SELECT id, product_id, version_id, machine_id FROM run ORDER BY received_at DESC"
        + " LIMIT 1").query().singleRow();
    List<Long> series = jdbc.sql("SELECT series_id FROM result WHERE run_id = ?").param(run.get("id"))
        .query(Long.class).list();
    return new StoredRun((UUID) run.get("id"), (Long) run.get("product_id"), (Long) run.get("version_id"),
        (Long) run.get("machine_id"), null, series);
  }

  private static RunUpload run(int version, double[] levels, Random random) {
    List<RunUpload.ResultUpload> results = new ArrayList<>();
    for (int m = 0; m < levels.length; m++) {
      if (random.nextDouble() < 0.01) {
        levels[m] *= 1.2;
      }
      double session = 1 + 0.01 * random.nextGaussian();
      List<Double> samples = new ArrayList<>();
      for (int s = 0; s < 5; s++) {
        samples.add(levels[m] * session * (1 + 0.02 * random.nextGaussian()));
      }
      results.add(new RunUpload.ResultUpload("bench-" + m, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples));
    }
    return new RunUpload(UUID.randomUUID().toString(), "cygwin", "1.7." + version,
        new RunUpload.MachineInfo("bench-box", "Windows 7", "x64", 4, 8192L, Map.of()), "posix", null, null, null,
        Map.of(), results, List.of());
  }

  private static void post(HttpClient http, String base, RunUpload run) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(run))).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IllegalStateException("upload failed: " + r.statusCode() + " " + r.body());
    }
  }
}
