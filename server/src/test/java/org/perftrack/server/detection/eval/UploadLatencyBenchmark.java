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
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.bench.UploadCpuBenchmark;
import org.perftrack.server.detection.DetectionService;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.wire.RunUpload;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What detection adds to an upload, and whether it grows with history: one machine's 100 series grow to each
 * history length in turn (default 200, then 2,000 versions, 5 samples each), in one process and database, and at
 * each length (a) {@code DetectionService#onRunStored} alone for the newest run, in a rolled-back
 * transaction (SQL + statistics + writes), and (b) whole uploads of new versions over HTTP.
 * Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.UploadLatencyBenchmark [200,2000] [metrics]};
 * each round ends with the ratio of the longest history's {@code onRunStored} median to the shortest's.
 */
public final class UploadLatencyBenchmark {
  private static final String TOKEN = "bench-token-0123456789";

  public static void main(String[] args) throws Exception {
    int[] histories = args.length > 0 ? Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).sorted()
        .toArray() : new int[] {200, 2000};
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
      // one machine's history grows (in-process uploads) and is measured at each length, in one database
      Random random = new Random(5);
      double[] levels = new double[metrics];
      Arrays.setAll(levels, i -> 10 + random.nextInt(1000));
      double[] medians = new double[histories.length];
      double[] cpus = new double[histories.length];
      int version = 0;
      for (int h = 0; h < histories.length; h++) {
        while (version < histories[h]) {
          ingest.ingest(run(++version, levels, random));
        }
        jdbc.sql("ANALYZE").update(); // as autovacuum would have done long before a series reaches 200 versions
        Detection d = onRunStored(app, dir.resolve("db"), newestRun(jdbc), 40);
        double[] alone = d.times();
        double pgCpu = d.postgresCpu();
        cpus[h] = d.cpu();
        double[] uploads = new double[20];
        for (int i = 0; i < uploads.length; i++) {
          RunUpload run = run(++version, levels, random);
          long start = System.nanoTime();
          post(http, base, run);
          uploads[i] = (System.nanoTime() - start) / 1e6;
        }
        medians[h] = pct(alone, 50);
        System.out.printf(Locale.ROOT, "%d metrics x %d versions x 5 samples: onRunStored median %.1f ms"
            + " (p10 %.1f, p90 %.1f), CPU %.1f ms (Java %.1f + PostgreSQL backends %.1f); whole upload over HTTP median %.1f ms"
            + " (p90 %.1f)%n", metrics, histories[h], pct(alone, 50), pct(alone, 10), pct(alone, 90), cpus[h],
            cpus[h] - pgCpu, pgCpu, pct(uploads, 50), pct(uploads, 90));
      }
      if (histories.length > 1) {
        System.out.printf(Locale.ROOT, "onRunStored at %d versions / at %d versions: median time %.2f, CPU %.2f"
            + " (target <= 1.2)%n", histories[histories.length - 1], histories[0],
            medians[histories.length - 1] / medians[0], cpus[histories.length - 1] / cpus[0]);
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir); // its database: about 311 MB a run
    }
  }

  /** {@code onRunStored} timed alone: each round's wall time (ms), and the mean CPU of Java and PostgreSQL (ms). */
  public record Detection(double[] times, double javaCpu, double postgresCpu) {
    public double cpu() {
      return javaCpu + postgresCpu;
    }
  }

  /**
   * {@code DetectionService#onRunStored} for this run, {@code rounds} times after 10 warm-up rounds, each in a
   * rolled-back transaction (SQL + statistics + writes), on the server {@code app} whose embedded database is in
   * {@code db}.
   */
  public static Detection onRunStored(ConfigurableApplicationContext app, Path db, StoredRun run, int rounds)
      throws Exception {
    TransactionTemplate tx = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
    DetectionService detection = app.getBean(DetectionService.class);
    double[] alone = new double[rounds];
    long javaCpu = 0;
    Map<Long, Long> pgBefore = null;
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    for (int i = 0; i < alone.length + 10; i++) {
      if (i == 10) {
        pgBefore = UploadCpuBenchmark.postgresCpu(db, true);
      }
      long cpu = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      tx.executeWithoutResult(status -> {
        detection.onRunStored(run);
        status.setRollbackOnly();
      });
      if (i >= 10) {
        alone[i - 10] = (System.nanoTime() - start) / 1e6;
        javaCpu += threads.getCurrentThreadCpuTime() - cpu;
      }
    }
    double pgCpu = UploadCpuBenchmark.delta(pgBefore, UploadCpuBenchmark.postgresCpu(db, true)) / 1e6 / rounds;
    return new Detection(alone, javaCpu / 1e6 / rounds, pgCpu);
  }

  public static double pct(double[] values, int p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  /** The newest run, as the ingest hands it to detection (with its values, as an upload does). */
  public static StoredRun newestRun(JdbcClient jdbc) {
    return newestRun(jdbc, "SELECT id, product_id, version_id, machine_id FROM run ORDER BY received_at DESC LIMIT 1");
  }

  /** The run {@code select} finds (columns id, product_id, version_id, machine_id), as {@link #newestRun(JdbcClient)}. */
  public static StoredRun newestRun(JdbcClient jdbc, String select, Object... params) {
    Map<String, Object> run = jdbc.sql(select).params(params).query().singleRow();
    List<Long> series = new ArrayList<>();
    List<StoredRun.Values> values = new ArrayList<>();
    jdbc.sql("SELECT series_id, samples FROM result WHERE run_id = ? ORDER BY series_id").param(run.get("id"))
        .query((java.sql.ResultSet rs) -> {
          series.add(rs.getLong(1));
          Double[] boxed = (Double[]) rs.getArray(2).getArray();
          double[] samples = Arrays.stream(boxed).mapToDouble(Double::doubleValue).toArray();
          values.add(new StoredRun.Values(samples, samples.length, 0, null, null));
        });
    return new StoredRun((UUID) run.get("id"), (Long) run.get("product_id"), (Long) run.get("version_id"),
        null, series, values);
  }

  private static RunUpload run(int version, double[] levels, Random random) {
    return run("bench-box", version, levels, random, null, null);
  }

  /**
   * A run of {@code version} on {@code machine}: 5 samples of each metric around its level (2 % noise, 1 % session
   * jitter), one metric in a hundred 20 % slower from this version on; in {@code batch} of {@code batchSize} if given.
   */
  static RunUpload run(String machine, int version, double[] levels, Random random, UUID batch, Integer batchSize) {
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
        new RunUpload.MachineInfo(machine, "Windows 7", "x64", 4, 8192L, Map.of()), "posix",
        batch == null ? null : batch.toString(), null, null, Map.of(), results, List.of(), null, null, batchSize);
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
