package org.perftrack.server.bench;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.wire.RunUpload;
import org.postgresql.PGConnection;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Ingestion throughput: 1,000 runs × 100 results × 5 samples through the HTTP API, against loading
 * the same samples with COPY into bare tables of the same database, in the same process.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.IngestBenchmark [runs] [clientThreads] [--spring.property=value…]}
 * (for example {@code --perftrack.embedded-db.durable=false} to see what fsync costs).
 */
public final class IngestBenchmark {

  private static final String TOKEN = "bench-token-0123456789";
  private static final int RESULTS = BenchmarkRuns.RESULTS;
  private static final int SAMPLES = BenchmarkRuns.SAMPLES;

  public static void main(String[] args) throws Exception {
    List<String> plain = java.util.Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
    int runs = plain.size() > 0 ? Integer.parseInt(plain.get(0)) : 1000;
    int threads = plain.size() > 1 ? Integer.parseInt(plain.get(1)) : 4;
    List<String> springArgs = new ArrayList<>(List.of("--server.port=0", "--perftrack.bootstrap-token=" + TOKEN,
        "--perftrack.admin.password=bench", "--perftrack.alerts.enabled=false", "--logging.level.root=WARN"));
    java.util.Arrays.stream(args).filter(a -> a.startsWith("--")).forEach(springArgs::add);
    Path dir = Files.createTempDirectory("perftrack-bench");
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run(concat(springArgs, "--perftrack.embedded-db.dir=" + dir.resolve("db")))) {
      int port = ((WebServerApplicationContext) app).getWebServer().getPort();
      DataSource ds = app.getBean(DataSource.class);
      HttpClient http = HttpClient.newHttpClient();
      String base = "http://localhost:" + port + "/api/v1/runs";

      upload(http, base, BenchmarkRuns.runs("warmup", 200, new Random(1)), threads); // JIT, pools, caches
      System.out.printf("ingest benchmark: %d runs x %d results x %d samples, %d client threads, %d cores, %s%n",
          runs, RESULTS, SAMPLES, threads, Runtime.getRuntime().availableProcessors(), springArgs);
      for (int round = 1; round <= 3; round++) {
        List<RunUpload> batch = BenchmarkRuns.runs("round" + round, runs, new Random(round));
        List<String> bodies = batch.stream().map(Json.MAPPER::writeValueAsString).toList();
        long samples = (long) runs * RESULTS * SAMPLES;

        long t0 = System.nanoTime();
        upload(http, base, bodies, threads);
        double apiSeconds = (System.nanoTime() - t0) / 1e9;

        System.out.printf("  inside the server, mean per upload: store %.1f ms, detect %.1f ms%n",
            meanMillis(app, "perftrack.ingest.store"), meanMillis(app, "perftrack.ingest.detect"));
        double copyArrays = copy(ds, batch, true);
        double copyRows = copy(ds, batch, false);
        double api = samples / apiSeconds;
        System.out.printf("round %d: API %,.0f samples/s (%.2f s) | COPY arrays %,.0f samples/s (%.2f s) ratio %.2f"
                + " | COPY one row per sample %,.0f samples/s (%.2f s) ratio %.2f%n",
            round, api, apiSeconds, samples / copyArrays, copyArrays, api / (samples / copyArrays),
            samples / copyRows, copyRows, api / (samples / copyRows));
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir); // its database: about 1 GB a run
    }
  }

  private static String[] concat(List<String> args, String more) {
    List<String> all = new ArrayList<>(args);
    all.add(more);
    return all.toArray(String[]::new);
  }

  /** Mean of a timer since the last call (the timers are reset by reading them this way). */
  private static double meanMillis(ConfigurableApplicationContext app, String timer) {
    var t = app.getBean(io.micrometer.core.instrument.MeterRegistry.class).get(timer).timer();
    double total = t.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS);
    long count = t.count();
    double[] last = LAST.computeIfAbsent(timer, k -> new double[2]);
    double mean = (total - last[0]) / Math.max(1, count - last[1]);
    last[0] = total;
    last[1] = count;
    return mean;
  }

  private static final Map<String, double[]> LAST = new java.util.HashMap<>();

  private static void upload(HttpClient http, String base, List<?> runs, int threads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (Object run : runs) {
        String body = run instanceof String s ? s : Json.MAPPER.writeValueAsString(run);
        statuses.add(pool.submit(() -> http.send(HttpRequest.newBuilder(URI.create(base))
            .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.discarding())
            .statusCode()));
      }
      for (Future<Integer> f : statuses) {
        if (f.get() != 201) {
          throw new IllegalStateException("upload answered " + f.get());
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Seconds to COPY the runs' samples into a fresh bare table: one row per result (arrays) or per sample. */
  private static double copy(DataSource ds, List<RunUpload> runs, boolean arrays) throws Exception {
    StringBuilder text = new StringBuilder();
    for (RunUpload run : runs) {
      for (RunUpload.ResultUpload r : run.results()) {
        if (arrays) {
          text.append(run.id()).append('\t').append(r.benchmark()).append('\t').append(r.metric()).append("\t{");
          for (int k = 0; k < r.samples().size(); k++) {
            text.append(k == 0 ? "" : ",").append(r.samples().get(k).doubleValue());
          }
          text.append("}\n");
        } else {
          for (Double v : r.samples()) {
            text.append(run.id()).append('\t').append(r.benchmark()).append('\t').append(r.metric()).append('\t')
                .append(v.doubleValue()).append('\n');
          }
        }
      }
    }
    String table = arrays ? "bare_arrays" : "bare_rows";
    try (Connection c = ds.getConnection()) {
      c.createStatement().execute("DROP TABLE IF EXISTS " + table);
      c.createStatement().execute("CREATE TABLE " + table + " (run_id uuid, benchmark text, metric text, "
          + (arrays ? "samples float8[]" : "value float8") + ")");
      long t0 = System.nanoTime();
      c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN", new StringReader(text.toString()));
      return (System.nanoTime() - t0) / 1e9;
    }
  }
}
