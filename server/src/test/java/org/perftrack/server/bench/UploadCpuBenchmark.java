package org.perftrack.server.bench;

import java.io.IOException;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;
import org.postgresql.PGConnection;

/**
 * CPU per single upload of {@code results} results × 5 samples (default 100), one client, each run a new version of
 * a machine whose series already hold some history (the common CI case): CPU of the server's whole JVM (a process of
 * its own, {@link BenchServer}: every thread, the garbage collector's and the JIT's too; the client is not counted)
 * and of every PostgreSQL process of its embedded database (backends, WAL writer, checkpointer, from
 * {@code /proc/<pid>/stat}). Baseline in the same run: the CPU of COPYing the same samples (one row per result,
 * arrays) into a bare table, per run. Prints {@code figure} lines for {@code bench/ab.sh}.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.UploadCpuBenchmark [uploads] [history] [results]}
 * ({@code JAVA_OPTS=-Dbench.jfr=/tmp/upload.jfr}: a flight recording of the server during the second round);
 * against another commit's server: {@code bench/ab.sh run COMMIT 3 org.perftrack.server.bench.UploadCpuBenchmark …}.
 */
public final class UploadCpuBenchmark {

  private static final int SAMPLES = 5;
  private static final long TICK_NS = 10_000_000L; // USER_HZ = 100 on Linux

  public static void main(String[] args) throws Exception {
    int uploads = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int history = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int results = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    Path dir = Files.createTempDirectory("perftrack-cpu-bench");
    try (BenchServer server = BenchServer.start(dir)) {
      String base = server.uri("/api/v1/runs").toString();
      HttpClient http = HttpClient.newHttpClient();
      Random random = new Random(7);
      double[] levels = new double[results];
      for (int i = 0; i < results; i++) {
        levels[i] = 10 + random.nextInt(1000);
      }
      int version = 0;
      List<RunUpload> past = new ArrayList<>(); // the history, imported 200 runs a request (2,000 uploads take long)
      for (int i = 0; i < history; i++) {
        past.add(run(++version, levels, random));
        if (past.size() == 200 || i == history - 1) {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + ":import"))
              .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + BenchServer.TOKEN)
              .POST(HttpRequest.BodyPublishers.ofByteArray(BenchmarkRuns.ndjson(past))).build(),
              HttpResponse.BodyHandlers.ofString());
          if (r.statusCode() != 200 || !r.body().contains("\"failed\":0")) {
            throw new IllegalStateException("import failed: " + r.statusCode() + " " + r.body());
          }
          past.clear();
        }
      }
      DataSource ds = server.database();
      try (Connection c = ds.getConnection()) {
        c.createStatement().execute("ANALYZE");
      }
      List<RunUpload> runs = new ArrayList<>();
      for (int i = 0; i < uploads; i++) {
        runs.add(run(++version, levels, random));
      }
      List<String> bodies = runs.stream().map(Json.MAPPER::writeValueAsString).toList();
      System.out.printf(Locale.ROOT, "upload CPU benchmark: %d uploads of %d results x %d samples, one client, after"
          + " %d versions of history, %d cores%n", uploads, results, SAMPLES, history,
          Runtime.getRuntime().availableProcessors());
      for (int round = 1; round <= 2; round++) {
        int from = (round - 1) * uploads / 2;
        int to = round * uploads / 2;
        String jfr = System.getProperty("bench.jfr"); // a profile of the measured round only
        if (round == 2 && jfr != null) {
          server.record(jfr);
        }
        long jvm0 = server.jvmCpu();
        Map<Long, Long> pg0 = server.postgresCpu();
        long wall0 = System.nanoTime();
        for (int i = from; i < to; i++) {
          post(http, base, bodies.get(i));
        }
        double wall = (System.nanoTime() - wall0) / 1e6 / (to - from);
        double jvm = (server.jvmCpu() - jvm0) / 1e6 / (to - from);
        double pg = delta(pg0, server.postgresCpu()) / 1e6 / (to - from);
        if (round == 2 && jfr != null) {
          server.record(null);
        }
        Map<Long, Long> copy0 = server.postgresCpu();
        long copyWall0 = System.nanoTime();
        long copyThread0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        copy(ds, runs.subList(from, to));
        double copyJava = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - copyThread0) / 1e6
            / (to - from);
        double copyPg = delta(copy0, server.postgresCpu()) / 1e6 / (to - from);
        double copyWall = (System.nanoTime() - copyWall0) / 1e6 / (to - from);
        System.out.printf(Locale.ROOT, "round %d: per upload CPU %.1f ms = server JVM %.1f ms + PostgreSQL %.1f ms"
                + " (wall %.1f ms) | baseline COPY of the same samples per run: %.2f ms = client %.2f + PostgreSQL"
                + " %.2f (wall %.2f ms); ratio upload/COPY CPU %.1f%n", round, jvm + pg, jvm, pg, wall,
            copyJava + copyPg, copyJava, copyPg, copyWall, (jvm + pg) / (copyJava + copyPg));
        if (round == 2) { // the first round warms the JIT and the caches
          System.out.printf(Locale.ROOT, "figure upload-cpu-ms %.2f%nfigure upload-jvm-ms %.2f%n"
              + "figure upload-pg-ms %.2f%n", jvm + pg, jvm, pg);
        }
      }
      System.out.println("(PostgreSQL CPU counts every postgres process at 10 ms clock ticks: backends, WAL writer,"
          + " checkpointer)");
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir); // its database: about 1 GB a run
    }
  }

  /** utime + stime of a process ({@code /proc/<pid>/stat}: every thread), in ns. */
  static long cpuOf(Path stat) throws IOException {
    String text = Files.readString(stat);
    String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NS;
  }

  /** utime + stime (ns) of every postgres process whose command line names the data directory or is its child. */
  public static Map<Long, Long> postgresCpu(Path data) throws Exception {
    return postgresCpu(data, false);
  }

  /**
   * As {@link #postgresCpu(Path)}; with {@code backendsOnly} only the client backends (no autovacuum, checkpointer
   * or WAL writer).
   */
  public static Map<Long, Long> postgresCpu(Path data, boolean backendsOnly) throws Exception {
    Map<Long, Long> cpu = new HashMap<>();
    Long postmaster = null;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String cmd = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
          if (cmd.contains(data.toString()) && cmd.contains("postgres")) {
            postmaster = Long.parseLong(name);
          }
        } catch (Exception gone) {
          // exited meanwhile
        }
      }
    }
    if (postmaster == null) {
      throw new IllegalStateException("no postgres process for " + data);
    }
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          long pid = Long.parseLong(name);
          long ppid = Long.parseLong(f[1]);
          boolean wanted = pid == postmaster || ppid == postmaster;
          if (wanted && backendsOnly) {
            String cmd = Files.readString(p.resolve("cmdline")).replace('\0', ' ');
            wanted = cmd.contains("127.0.0.1(") || cmd.contains("[local]");
          }
          if (wanted) {
            cpu.put(pid, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NS);
          }
        } catch (Exception gone) {
          // exited meanwhile
        }
      }
    }
    return cpu;
  }

  public static long delta(Map<Long, Long> before, Map<Long, Long> after) {
    long total = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      total += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    return total;
  }

  static RunUpload run(int version, double[] levels, Random random) {
    List<RunUpload.ResultUpload> results = new ArrayList<>(levels.length);
    for (int m = 0; m < levels.length; m++) {
      double session = 1 + 0.01 * random.nextGaussian();
      List<Double> samples = new ArrayList<>(SAMPLES);
      for (int s = 0; s < SAMPLES; s++) {
        samples.add(levels[m] * session * (1 + 0.02 * random.nextGaussian()));
      }
      results.add(new RunUpload.ResultUpload("bench-" + m, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples));
    }
    return new RunUpload(UUID.randomUUID().toString(), "cpu", "2." + version,
        new RunUpload.MachineInfo("cpu-box", "Linux", "x86_64", 2, 8192L, Map.of()), "posix", null, null, null,
        Map.of(), results, List.of());
  }

  static void post(HttpClient http, String base, String body) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + BenchServer.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IllegalStateException("upload failed: " + r.statusCode() + " " + r.body());
    }
  }

  private static void copy(DataSource ds, List<RunUpload> runs) throws Exception {
    try (Connection c = ds.getConnection()) {
      c.createStatement().execute("DROP TABLE IF EXISTS bare_results");
      c.createStatement().execute("CREATE TABLE bare_results (run_id uuid, benchmark text, metric text,"
          + " samples float8[])");
      for (RunUpload run : runs) {
        StringBuilder text = new StringBuilder();
        for (RunUpload.ResultUpload r : run.results()) {
          text.append(run.id()).append('\t').append(r.benchmark()).append('\t').append(r.metric()).append("\t{");
          for (int k = 0; k < r.samples().size(); k++) {
            text.append(k == 0 ? "" : ",").append(r.samples().get(k).doubleValue());
          }
          text.append("}\n");
        }
        c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY bare_results FROM STDIN",
            new StringReader(text.toString()));
      }
    }
  }
}
