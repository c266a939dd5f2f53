package org.perftrack.server.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server in a JVM of its own, for what cannot happen inside the test's JVM: {@code kill -9} and
 * SIGTERM. It runs on the test's class path; its log goes to a file that failures print.
 */
public final class ServerProcess implements AutoCloseable {

  private final Process process;
  private final Path log;
  private final int port;

  private ServerProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts a server on {@code data} and waits until it answers its health check. */
  public static ServerProcess start(Path data, Path log, String... args) {
    return start(data, log, IntegrationTest.freePort(), args);
  }

  /** As {@link #start(Path, Path, String...)}, on {@code port} (an address its clients knew before it started). */
  public static ServerProcess start(Path data, Path log, int port, String... args) {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), "org.perftrack.server.PerftrackApplication",
        "--server.port=" + port, "--perftrack.embedded-db.dir=" + data, "--perftrack.admin.password=pw",
        "--spring.main.banner-mode=off"));
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      ServerProcess server = new ServerProcess(p, log, port);
      await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).until(() -> {
        if (!p.isAlive()) {
          throw new AssertionError("the server exited with " + p.exitValue() + ":\n" + server.log());
        }
        return server.healthy();
      });
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Http http() {
    return new Http(base());
  }

  public String base() {
    return "http://localhost:" + port;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  private boolean healthy() {
    try {
      return http().get("/actuator/health").status() == 200;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** {@code kill -9}: no shutdown hook runs. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGTERM, as a service manager stops it; returns its exit code, or throws if it did not end in time. */
  public int terminate(Duration atMost) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("the server did not exit within " + atMost + ":\n" + log());
    }
    return process.exitValue();
  }

  public String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
