package org.perftrack.server.bench;

import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
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
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.wire.RunUpload;
import org.postgresql.PGConnection;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Bulk import throughput: 1,000 runs × 100 results × 5 samples as one NDJSON request to
 * {@code POST /api/v1/runs:import}, against COPY of the same samples into a bare table of the same database
 * (one row per sample, and one row per result with the samples as an array), in the same process and round.
 * The import's own timers split its time into storing (parse, validate, insert, COPY) and detection + mail.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.ImportBenchmark [runs] [rounds] [--spring.property=value…]}
 */
public final class ImportBenchmark {

  private static final String TOKEN = "bench-token-0123456789";
  private static final int RESULTS = BenchmarkRuns.RESULTS;
  private static final int SAMPLES = BenchmarkRuns.SAMPLES;

  public static void main(String[] args) throws Exception {
    List<String> plain = java.util.Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
    int runs = plain.size() > 0 ? Integer.parseInt(plain.get(0)) : 1000;
    int rounds = plain.size() > 1 ? Integer.parseInt(plain.get(1)) : 3;
    List<String> springArgs = new ArrayList<>(List.of("--server.port=0", "--perftrack.bootstrap-token=" + TOKEN,
        "--perftrack.admin.password=bench", "--perftrack.alerts.enabled=false", "--logging.level.root=WARN"));
    java.util.Arrays.stream(args).filter(a -> a.startsWith("--")).forEach(springArgs::add);
    Path dir = Files.createTempDirectory("perftrack-bench");
    Path pgData = dir.resolve("db");
    springArgs.add("--perftrack.embedded-db.dir=" + pgData);
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run(springArgs.toArray(String[]::new))) {
      int port = ((WebServerApplicationContext) app).getWebServer().getPort();
      DataSource ds = app.getBean(DataSource.class);
      HttpClient http = HttpClient.newHttpClient();
      URI endpoint = URI.create("http://localhost:" + port + "/api/v1/runs:import");

      post(http, endpoint, BenchmarkRuns.ndjson(BenchmarkRuns.runs("warmup", 200, new Random(1)))); // JIT, pools, caches
      timerSeconds(app, "perftrack.import.store");
      timerSeconds(app, "perftrack.import.detect");
      System.out.printf("import benchmark: %d runs x %d results x %d samples in one NDJSON request, %d cores, %s%n",
          runs, RESULTS, SAMPLES, Runtime.getRuntime().availableProcessors(), springArgs);
      long samples = (long) runs * RESULTS * SAMPLES;
      List<double[]> warm = new ArrayList<>(); // import s, store s, detection s, COPY rows s, import CPU, COPY CPU
      for (int round = 1; round <= rounds; round++) {
        // the runs are made again for the COPY after the import: the client's copy of them is not in the server's
        // heap (one JVM) while it imports
        byte[] body = BenchmarkRuns.ndjson(BenchmarkRuns.runs("round" + round, runs, new Random(round)));

        long server0 = serverCpu();
        Map<Long, Long> pg0 = UploadCpuBenchmark.postgresCpu(pgData);
        long t0 = System.nanoTime();
        String answer = post(http, endpoint, body);
        double importSeconds = (System.nanoTime() - t0) / 1e9;
        double importServerCpu = (serverCpu() - server0) / 1e9;
        double importPgCpu = UploadCpuBenchmark.delta(pg0, UploadCpuBenchmark.postgresCpu(pgData)) / 1e9;
        double importCpu = importServerCpu + importPgCpu;
        double store = timerSeconds(app, "perftrack.import.store");
        double detect = timerSeconds(app, "perftrack.import.detect");
        body = null;
        List<RunUpload> batch = BenchmarkRuns.runs("round" + round, runs, new Random(round));
        long copyThread0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        Map<Long, Long> copyPg0 = UploadCpuBenchmark.postgresCpu(pgData);
        double copyRows = copy(ds, batch, false);
        double copyCpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - copyThread0) / 1e9
            + UploadCpuBenchmark.delta(copyPg0, UploadCpuBenchmark.postgresCpu(pgData)) / 1e9;
        double copyArrays = copy(ds, batch, true);

        System.out.printf("round %d: import %,.0f samples/s (%.2f s: store %.2f s, detection %.2f s) | COPY one row"
                + " per sample %,.0f samples/s (%.2f s) | COPY arrays %,.0f samples/s (%.2f s)%n",
            round, samples / importSeconds, importSeconds, store, detect, samples / copyRows, copyRows,
            samples / copyArrays, copyArrays);
        System.out.printf("         ratio import/COPY rows %.2f (store only %.2f) | import/COPY arrays %.2f"
                + " (store only %.2f) | %s%n",
            copyRows / importSeconds, copyRows / store, copyArrays / importSeconds, copyArrays / store,
            answer.length() > 160 ? answer.substring(0, 160) + "…" : answer);
        System.out.printf("         CPU (server threads + PostgreSQL, load-independent): import %.2f s (server %.2f s,"
            + " PostgreSQL %.2f s), COPY rows %.2f s (its text built and sent, and PostgreSQL's); ratio COPY/import CPU"
            + " %.2f%n", importCpu, importServerCpu, importPgCpu, copyCpu, copyCpu / importCpu);
        if (round >= 3) {
          warm.add(new double[] {importSeconds, store, detect, copyRows, importCpu, copyCpu, importServerCpu,
              importPgCpu});
        }
      }
      if (!warm.isEmpty()) {
        double[] m = new double[8];
        double[] best = new double[8];
        for (int k = 0; k < 8; k++) {
          final int col = k;
          double[] column = warm.stream().mapToDouble(r -> r[col]).sorted().toArray();
          m[k] = column.length % 2 == 1 ? column[column.length / 2]
              : (column[column.length / 2 - 1] + column[column.length / 2]) / 2;
          best[k] = column[0];
        }
        System.out.printf("warm rounds 3-%d, medians (a noisy machine: the median of many rounds, and the fastest):"
                + " import %.2f s (store %.2f s, detection %.2f s), COPY rows %.2f s, ratio %.2f (store only %.2f);"
                + " fastest import %.2f s, fastest COPY rows %.2f s, ratio %.2f | CPU import %.2f s, COPY rows %.2f s,"
                + " ratio %.2f (import: server threads %.2f s, PostgreSQL %.2f s)%n", rounds, m[0], m[1], m[2], m[3],
            m[3] / m[0], m[3] / m[1], best[0], best[3], best[3] / best[0], m[4], m[5], m[5] / m[4], m[6], m[7]);
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir); // its database: about 1 GB a run
    }
  }

  /** CPU (ns) of the threads that serve an import: Tomcat's request threads, its store thread, the detector's pool. */
  private static long serverCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && (info.getThreadName().startsWith("http-nio") || info.getThreadName().startsWith("import-")
          || info.getThreadName().startsWith("ForkJoinPool.commonPool"))) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }

  /** The seconds a timer recorded since the last call. */
  private static double timerSeconds(ConfigurableApplicationContext app, String timer) {
    var t = app.getBean(io.micrometer.core.instrument.MeterRegistry.class).get(timer).timer();
    double total = t.totalTime(TimeUnit.SECONDS);
    double last = LAST.getOrDefault(timer, 0.0);
    LAST.put(timer, total);
    return total - last;
  }

  private static final Map<String, Double> LAST = new java.util.HashMap<>();

  private static String post(HttpClient http, URI endpoint, byte[] body) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint)
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/x-ndjson")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200 || !r.body().contains("\"failed\":0")) {
      throw new IllegalStateException("import answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /** Seconds to COPY the runs' samples into a fresh bare table: one row per sample, or per result (arrays). */
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
