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
import org.perftrack.server.ingest.IngestService;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What detection adds to an upload, and whether it grows with history: for each history length (default
 * 200 and 2,000), a machine whose 100 series already hold that many versions (5 samples each), all in one
 * database and process; then (a) {@code DetectionService#onRunStored} alone for the newest run, in a rolled-back
 * transaction (SQL + statistics + writes), and (b) whole uploads of new versions over HTTP.
 * Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.UploadLatencyBenchmark [200,2000] [metrics]};
 * each round ends with the ratio of the longest history's {@code onRunStored} median to the shortest's.
 */
public final class UploadLatencyBenchmark {
  private static final String TOKEN = "bench-token-0123456789";

  public static void main(String[] args) throws Exception {
    int[] histories = args.length > 0 ? Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {200, 2000};
    int metrics = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    Path dir = Files.createTempDirectory("perftrack-detection-bench");
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("db"),
            "--perftrack.alerts.enabled=false",
            "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=bench", "--logging.level.root=WARN")) {
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      HttpClient http = HttpClient.newHttpClient();
      IngestService ingest = app.getBean(IngestService.class);
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      TransactionTemplate tx = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
      DetectionService detection = app.getBean(DetectionService.class);
      // every history is seeded first (in-process, as uploads), so that all are measured on one database
      Random random = new Random(5);
      double[][] levels = new double[histories.length][metrics];
      for (int h = 0; h < histories.length; h++) {
        Arrays.setAll(levels[h], i -> 10 + random.nextInt(1000));
        for (int v = 1; v <= histories[h]; v++) {
          ingest.ingest(run(histories[h], v, levels[h], random));
        }
      }
      jdbc.sql("ANALYZE").update(); // as autovacuum would have done long before a series reaches 200 versions
      double[] medians = new double[histories.length];
      for (int round = 0; round < 2; round++) {
        for (int h = 0; h < histories.length; h++) {
          int versions = histories[h];
          StoredRun newest = newestRun(jdbc, "cygwin-" + versions);
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
            RunUpload run = run(versions, versions + 1 + round * uploads.length + i, levels[h], random);
            long start = System.nanoTime();
            post(http, base, run);
            uploads[i] = (System.nanoTime() - start) / 1e6;
          }
          medians[h] = pct(alone, 50);
          System.out.printf(Locale.ROOT, "round %d: %d metrics x %d versions x 5 samples: onRunStored median %.1f ms"
              + " (p90 %.1f), whole upload over HTTP median %.1f ms (p90 %.1f)%n", round + 1, metrics, versions,
              pct(alone, 50), pct(alone, 90), pct(uploads, 50), pct(uploads, 90));
        }
        if (histories.length > 1) {
          System.out.printf(Locale.ROOT, "round %d: onRunStored %d versions / %d versions = %.2f (target <= 1.2)%n",
              round + 1, histories[histories.length - 1], histories[0], medians[histories.length - 1] / medians[0]);
        }
      }
    }
  }

  private static double pct(double[] values, int p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  /** The newest run of a product, as the ingest hands it to detection. */
  private static StoredRun newestRun(JdbcClient jdbc, String product) {
    Map<String, Object> run = jdbc.sql("SELECT r.id, r.product_id, r.version_id, r.machine_id FROM run r"
        + " JOIN product p ON p.id = r.product_id WHERE p.name = ? ORDER BY r.received_at DESC LIMIT 1")
        .param(product).query().singleRow();
    List<Long> series = jdbc.sql("SELECT series_id FROM result WHERE run_id = ?").param(run.get("id"))
        .query(Long.class).list();
    return new StoredRun((UUID) run.get("id"), (Long) run.get("product_id"), (Long) run.get("version_id"),
        (Long) run.get("machine_id"), null, series);
  }

  private static RunUpload run(int history, int version, double[] levels, Random random) {
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
    return new RunUpload(UUID.randomUUID().toString(), "cygwin-" + history, "1.7." + version,
        new RunUpload.MachineInfo("bench-box-" + history, "Windows 7", "x64", 4, 8192L, Map.of()), "posix", null, null, null,
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
