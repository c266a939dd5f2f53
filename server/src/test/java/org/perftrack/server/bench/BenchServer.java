package org.perftrack.server.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * A perftrack server in a process of its own, for the benchmarks that measure what a server costs: its JVM's CPU
 * (every thread, from {@code /proc/<pid>/stat}) and that of its embedded PostgreSQL, with no client in either. The
 * server's class path is the system property {@code bench.server.cp} (a class path, or {@code @file} holding one:
 * {@code bench/ab.sh} passes another commit's build there); without it, this tree's own classes. JVM options of the
 * server go in {@code bench.server.opts}, e.g. {@code -XX:StartFlightRecording=filename=/tmp/server.jfr}. Not the
 * tests' {@code support.ServerProcess}: that one runs the test class path with the JIT's first tier only and a small
 * heap, made for kill and restart tests; a measurement needs the server as it runs in use, from any build.
 */
final class BenchServer implements AutoCloseable {

  static final String TOKEN = "bench-token-0123456789";

  private final Process process;
  private final Path pgData;
  private final URI base;

  private BenchServer(Process process, Path pgData, URI base) {
    this.process = process;
    this.pgData = pgData;
    this.base = base;
  }

  /** Starts a server on a fresh embedded database in {@code dir} and waits until it answers HTTP. */
  static BenchServer start(Path dir) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path pgData = dir.resolve("db");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx2g"));
    String opts = System.getProperty("bench.server.opts", "").strip(); // e.g. a flight recording of the server
    if (!opts.isEmpty()) {
      command.addAll(List.of(opts.split("\\s+")));
    }
    command.addAll(List.of("-cp", serverClassPath(), "org.perftrack.server.PerftrackApplication",
        "--server.port=" + port, "--perftrack.embedded-db.dir=" + pgData, "--perftrack.bootstrap-token=" + TOKEN,
        "--perftrack.admin.password=bench", "--perftrack.alerts.enabled=false", "--logging.level.root=WARN"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("server.log").toFile()).start();
    BenchServer server = new BenchServer(process, pgData, URI.create("http://localhost:" + port));
    server.awaitUp(dir.resolve("server.log"));
    return server;
  }

  private static String serverClassPath() throws IOException {
    String cp = System.getProperty("bench.server.cp");
    if (cp != null && cp.startsWith("@")) {
      return Files.readString(Path.of(cp.substring(1))).strip();
    }
    if (cp != null) {
      return cp;
    }
    return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(e -> !e.endsWith("test-classes")).collect(Collectors.joining(java.io.File.pathSeparator));
  }

  private void awaitUp(Path log) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the server exited: " + Files.readString(log));
      }
      try {
        http.send(HttpRequest.newBuilder(base.resolve("/actuator/health")).build(),
            HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        Thread.sleep(250);
      }
    }
    throw new IllegalStateException("the server did not answer within 5 minutes: " + Files.readString(log));
  }

  /** {@code path} on this server, e.g. {@code /api/v1/runs:import}. */
  URI uri(String path) {
    return base.resolve(path);
  }

  Path pgData() {
    return pgData;
  }

  /** CPU of the server's JVM (every thread: requests, garbage collector, JIT), in ns. */
  long jvmCpu() throws IOException {
    return UploadCpuBenchmark.cpuOf(Path.of("/proc", Long.toString(process.pid()), "stat"));
  }

  /** CPU of every process of its PostgreSQL, per pid, in ns ({@link UploadCpuBenchmark#delta} subtracts two). */
  Map<Long, Long> postgresCpu() throws Exception {
    return UploadCpuBenchmark.postgresCpu(pgData);
  }

  /**
   * Starts ({@code file} given) or stops and writes (null) a flight recording of the server ({@code jcmd}), to
   * profile only what a benchmark measures: {@code jfr print --events jdk.ExecutionSample FILE}.
   */
  void record(String file) throws Exception {
    List<String> command = file != null
        ? List.of("jcmd", Long.toString(process.pid()), "JFR.start", "name=bench", "settings=profile",
            "filename=" + file)
        : List.of("jcmd", Long.toString(process.pid()), "JFR.stop", "name=bench");
    Process jcmd = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(jcmd.getInputStream().readAllBytes());
    if (jcmd.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + ": " + said);
    }
  }

  /** The embedded database, through the port and password the server left in its data directory. */
  DataSource database() throws IOException {
    int pgPort = Integer.parseInt(Files.readAllLines(pgData.resolve("postmaster.pid")).get(3).strip());
    return new SimpleDriverDataSource(new org.postgresql.Driver(), "jdbc:postgresql://127.0.0.1:" + pgPort
        + "/postgres", "postgres", Files.readString(pgData.resolve("perftrack-db-password")).strip());
  }

  @Override
  public void close() throws Exception {
    process.destroy(); // SIGTERM: Spring stops the web server, then the embedded PostgreSQL
    if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
