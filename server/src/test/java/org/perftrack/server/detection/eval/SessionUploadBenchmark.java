package org.perftrack.server.detection.eval;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.bench.UploadCpuBenchmark;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.wire.RunUpload;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the upload that completes a session costs ({@code batch} with {@code batchSize}: its runs are stored on
 * arrival and judged together, oldest version first, by the upload that brings the last of them), against the same
 * runs uploaded one by one and judged on arrival, in one server process and database.
 *
 * <p>For each session size N (default 1, 10, 100), three machines get the same 200-version history (100 metrics,
 * 5 samples each); then each round sends the same N new versions (a run each, in version order) to each machine:
 * as one session of N ({@code batchSize} N; the completing upload is timed: wall time, the request thread's CPU
 * and PostgreSQL's backends' CPU), as N uploads of one {@code batch} without {@code batchSize} and as N uploads
 * without {@code batch} (each judged on arrival; the N uploads summed). Uploads go through {@link IngestService}
 * on the benchmark's thread, so that the thread's CPU is the server's. Last, one more session per N is completed
 * while another machine uploads over HTTP without pause and a page ({@code /regressions}) is read: their p95
 * during the completing upload against the same number just before it.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.SessionUploadBenchmark [1,10,100] [rounds]
 * [metrics] [one-version] [completing-only]} (rounds per N, default 3; at N ≥ 100 at most 2, at N ≥ 1000 one;
 * {@code one-version}: each session's N runs, and those judged on arrival, are all of one new version; no run under
 * load then; {@code completing-only}: only the completing upload, none judged on arrival and no run under load).
 */
public final class SessionUploadBenchmark {
  private static final String TOKEN = "bench-token-0123456789";
  private static final int HISTORY = 200;
  private static final boolean PROFILE = Boolean.getBoolean("profile");

  public static void main(String[] args) throws Exception {
    int[] sizes = args.length > 0 ? Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 10, 100};
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int metrics = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    // one-version: the N runs of a session (and of the runs judged on arrival) are all of one new version
    boolean oneVersion = Arrays.asList(args).subList(Math.min(3, args.length), args.length).contains("one-version");
    // completing-only: no uploads judged on arrival to compare with (a session of 1,000 takes long enough)
    boolean completingOnly = Arrays.asList(args).subList(Math.min(3, args.length), args.length)
        .contains("completing-only");
    Path dir = Files.createTempDirectory("perftrack-session-bench");
    Path db = dir.resolve("db");
    String[] appArgs = {"--server.port=0", "--perftrack.embedded-db.dir=" + db, "--perftrack.alerts.enabled=false",
        "--perftrack.detection.batch-settle=24h", // only the completing upload judges a session here
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=bench", "--logging.level.root=WARN"};
    if (PROFILE) { // -Dprofile=true: the statements of each N's last completing upload, by PostgreSQL's time
      try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
        app.getBean(JdbcClient.class).sql("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'").update();
      }
    }
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      IngestService ingest = app.getBean(IngestService.class);
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      if (PROFILE) {
        jdbc.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").update();
      }
      System.out.printf(Locale.ROOT, "%d metrics x 5 samples, history %d versions; per N: completing upload of a"
          + " session of N vs N uploads judged on arrival (sum), same runs, same process%n", metrics, HISTORY);
      int nextVersion = HISTORY;
      for (int n : sizes) {
        int r = n >= 1000 ? 1 : n >= 100 ? Math.min(rounds, 2) : rounds;
        String session = "s" + n;
        String batched = "b" + n;
        String plain = "p" + n;
        Random seed = new Random(n);
        long levelsSeed = seed.nextLong();
        double[] levels = null; // the levels the history ended with (the same on the three machines)
        for (String machine : completingOnly ? List.of(session) : List.of(session, batched, plain)) {
          Random random = new Random(levelsSeed);
          levels = levels(metrics, random);
          for (int v = 1; v <= HISTORY; v++) {
            ingest.ingest(run(machine, v, levels, random, null, null));
          }
        }
        jdbc.sql("ANALYZE").update();
        List<double[]> completing = new ArrayList<>();
        List<double[]> onArrivalBatch = new ArrayList<>();
        List<double[]> onArrival = new ArrayList<>();
        double storeOnly = 0;
        for (int round = 0; round < r; round++) {
          int from = nextVersion + 1;
          nextVersion += oneVersion ? 1 : n;
          long runsSeed = seed.nextLong();
          // a session of N: N - 1 uploads only store, the last judges all
          UUID batch = UUID.randomUUID();
          Random random = new Random(runsSeed);
          double[] lv = levels.clone();
          long start = System.nanoTime();
          for (int v = from; v < from + n - 1; v++) {
            ingest.ingest(run(session, oneVersion ? from : v, oneVersion ? levels.clone() : lv, random, batch, n));
          }
          storeOnly += (System.nanoTime() - start) / 1e6;
          RunUpload last = run(session, oneVersion ? from : from + n - 1, oneVersion ? levels.clone() : lv, random,
              batch, n);
          if (PROFILE) {
            jdbc.sql("SELECT pg_stat_statements_reset()").query().singleValue();
          }
          completing.add(timed(threads, db, () -> {
            ingest.ingest(last);
          }));
          if (PROFILE && round == r - 1) {
            jdbc.sql("""
                SELECT round(total_exec_time::numeric, 1) AS total, calls, rows, round(mean_exec_time::numeric, 3) AS mean,
                       left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS q
                FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12""").query().listOfRows()
                .forEach(x -> System.out.printf("%9s %6s %8s %9s  %s%n", x.get("total"), x.get("calls"), x.get("rows"),
                    x.get("mean"), x.get("q")));
          }
          if (jdbc.sql("SELECT count(*) FROM session_pending").query(Long.class).single() > 0) {
            throw new IllegalStateException("the session's last run did not judge it");
          }
          // the same runs, judged on arrival
          for (boolean withBatch : completingOnly ? new boolean[0] : new boolean[] {true, false}) {
            Random same = new Random(runsSeed);
            double[] sl = levels.clone();
            UUID b = withBatch ? UUID.randomUUID() : null;
            List<RunUpload> runs = new ArrayList<>();
            for (int v = from; v < from + n; v++) {
              runs.add(run(withBatch ? batched : plain, oneVersion ? from : v, oneVersion ? levels.clone() : sl, same,
                  b, null));
            }
            (withBatch ? onArrivalBatch : onArrival).add(timed(threads, db, () -> runs.forEach(ingest::ingest)));
          }
          levels = lv;
        }
        double[] c = median(completing);
        System.out.printf(Locale.ROOT, "N=%d (%d rounds, medians): completing upload %.0f ms, CPU %.0f ms (Java %.0f +"
            + " PostgreSQL %.0f); the session's other N-1 uploads %.0f ms in all%n", n, r, c[0], c[1] + c[2], c[1], c[2],
            storeOnly / r);
        if (completingOnly) {
          continue;
        }
        double[] a = median(onArrivalBatch);
        double[] p = median(onArrival);
        System.out.printf(Locale.ROOT, "  N uploads of one batch judged on arrival: %.0f ms, CPU %.0f ms -> ratio"
            + " completing/on-arrival: time %.2f, CPU %.2f%n", a[0], a[1] + a[2], c[0] / a[0], (c[1] + c[2]) / (a[1] + a[2]));
        System.out.printf(Locale.ROOT, "  N uploads without batch judged on arrival: %.0f ms, CPU %.0f ms -> ratio:"
            + " time %.2f, CPU %.2f; per run of the session: %.1f ms, CPU %.1f ms%n", p[0], p[1] + p[2], c[0] / p[0],
            (c[1] + c[2]) / (p[1] + p[2]), c[0] / n, (c[1] + c[2]) / n);
        if (n >= 10 && !oneVersion && !completingOnly) {
          nextVersion = contended(base, ingest, session, n, nextVersion, levels, seed.nextLong());
        }
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir);
    }
  }

  /**
   * One more session of N completed while another machine uploads over HTTP without pause and another client reads
   * {@code /regressions}: their p95 during the completing upload against the same count just before it.
   */
  private static int contended(String base, IngestService ingest, String machine, int n, int nextVersion,
      double[] levels, long runsSeed) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    int from = nextVersion + 1;
    UUID batch = UUID.randomUUID();
    Random random = new Random(runsSeed);
    double[] lv = levels.clone();
    for (int v = from; v < from + n - 1; v++) {
      ingest.ingest(run(machine, v, lv, random, batch, n));
    }
    RunUpload last = run(machine, from + n - 1, lv, random, batch, n);
    // the other machine's history: its versions are the session's product's, its own machine
    Random otherRandom = new Random(runsSeed + 1);
    double[] otherLevels = levels(levels.length, otherRandom);
    String other = "other" + n;
    for (int v = 1; v <= 20; v++) {
      ingest.ingest(run(other, v, otherLevels, otherRandom, null, null));
    }
    List<long[]> uploads = java.util.Collections.synchronizedList(new ArrayList<>());
    List<long[]> pages = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    Thread uploader = new Thread(() -> {
      int v = 21;
      while (!stop.get()) {
        try {
          RunUpload run = run(other, v++, otherLevels, otherRandom, null, null);
          String body = Json.MAPPER.writeValueAsString(run);
          long s = System.nanoTime();
          HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs"))
              .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
              .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
          uploads.add(new long[] {s, System.nanoTime(), res.statusCode()});
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    });
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        try {
          long s = System.nanoTime();
          HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(base + "/regressions")).GET()
              .build(), HttpResponse.BodyHandlers.ofString());
          pages.add(new long[] {s, System.nanoTime(), res.statusCode()});
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    });
    uploader.start();
    reader.start();
    Thread.sleep(3000); // warm: both loops running
    long before = System.nanoTime();
    Thread.sleep(Math.max(5000, n * 20L)); // the time before the completing upload, as long as it may take
    long start = System.nanoTime();
    ingest.ingest(last);
    long end = System.nanoTime();
    Thread.sleep(1000);
    stop.set(true);
    uploader.join();
    reader.join();
    long failed = java.util.stream.Stream.concat(uploads.stream(), pages.stream()).filter(x -> x[2] >= 300).count();
    System.out.printf(Locale.ROOT, "  under load, N=%d: completing upload %.0f ms; another machine's uploads over"
        + " HTTP p95 %s before, %s during (overlapping it); /regressions p95 %s before, %s during; non-2xx %d%n", n,
        (end - start) / 1e6, p95(uploads, before, start), p95(uploads, start, end), p95(pages, before, start),
        p95(pages, start, end), failed);
    return nextVersion + n;
  }

  /** p95 (ms) and count of the requests that overlap [from, to]. */
  private static String p95(List<long[]> requests, long from, long to) {
    double[] ms;
    synchronized (requests) {
      ms = requests.stream().filter(x -> x[1] >= from && x[0] <= to).mapToDouble(x -> (x[1] - x[0]) / 1e6).toArray();
    }
    if (ms.length == 0) {
      return "- (0)";
    }
    return String.format(Locale.ROOT, "%.0f ms (%d, max %.0f)", UploadLatencyBenchmark.pct(ms, 95), ms.length,
        Arrays.stream(ms).max().orElseThrow());
  }

  /** Wall time, this thread's CPU and PostgreSQL's backends' CPU (ms) of {@code work}. */
  private static double[] timed(ThreadMXBean threads, Path db, Runnable work) {
    try {
      Map<Long, Long> pg = UploadCpuBenchmark.postgresCpu(db, true);
      long cpu = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      work.run();
      double wall = (System.nanoTime() - start) / 1e6;
      double java = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
      double pgCpu = UploadCpuBenchmark.delta(pg, UploadCpuBenchmark.postgresCpu(db, true)) / 1e6;
      return new double[] {wall, java, pgCpu};
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static double[] median(List<double[]> rows) {
    double[] out = new double[rows.get(0).length];
    for (int i = 0; i < out.length; i++) {
      int k = i;
      out[i] = UploadLatencyBenchmark.pct(rows.stream().mapToDouble(x -> x[k]).toArray(), 50);
    }
    return out;
  }

  private static double[] levels(int metrics, Random random) {
    double[] levels = new double[metrics];
    Arrays.setAll(levels, i -> 10 + random.nextInt(1000));
    return levels;
  }

  private static RunUpload run(String machine, int version, double[] levels, Random random, UUID batch,
      Integer batchSize) {
    return UploadLatencyBenchmark.run(machine, version, levels, random, batch, batchSize);
  }
}
