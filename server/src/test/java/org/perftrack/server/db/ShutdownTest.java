package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * Issue 12 item 12: SIGTERM with uploads in flight. The server stops accepting, answers what it has
 * started, stops the outbox and only then the database: no upload gets a 5xx, every acknowledged run
 * is there after a restart, and the process exits well within the 30 s bound (the goal is under 10 s).
 */
class ShutdownTest {

  static final String TOKEN = "shutdown-token-0123456789";
  static final int CLIENTS = 6;

  @TempDir
  Path dir;

  @Test
  void sigtermWithUploadsInFlightAnswersThemAndLosesNothing() throws Exception {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    String[] args = {"--perftrack.bootstrap-token=" + TOKEN, "--spring.mail.host=127.0.0.1",
        "--spring.mail.port=" + IntegrationTest.freePort(), "--perftrack.alerts.recipients=ops@shutdown.test"};
    Map<String, String> acknowledged = new ConcurrentHashMap<>();
    List<String> failures = new CopyOnWriteArrayList<>();
    long exitMillis;
    try (ServerProcess server = ServerProcess.start(data, dir.resolve("first.log"), args)) {
      Http http = server.http();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        clients.submit(() -> upload(http, client, stop, acknowledged, failures));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (acknowledged.size() < 3 * CLIENTS && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(acknowledged).as("uploads were running when SIGTERM came").hasSizeGreaterThanOrEqualTo(3 * CLIENTS);
      long t0 = System.nanoTime();
      server.terminate(Duration.ofSeconds(30));
      exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      stop.set(true);
      clients.shutdown();
      assertThat(clients.awaitTermination(90, TimeUnit.SECONDS)).isTrue();
      System.out.printf("ShutdownTest: SIGTERM to exit %d ms with %d runs acknowledged%n", exitMillis, acknowledged.size());
      assertThat(failures).as("answers during shutdown, log:\n" + server.log()).isEmpty();
      assertThat(server.log()).doesNotContain("Could not stop postmaster");
    }

    try (ServerProcess second = ServerProcess.start(data, dir.resolve("second.log"), args)) {
      for (Map.Entry<String, String> run : acknowledged.entrySet()) {
        assertThat(second.http().postJson("/api/v1/runs", run.getValue(), TOKEN).status())
            .as("acknowledged run %s is stored, unchanged", run.getKey()).isEqualTo(200);
      }
    }
  }

  /** Uploads until told to stop; a refused or reset connection is no answer (the agent sends again). */
  private static void upload(Http http, int client, AtomicBoolean stop, Map<String, String> acknowledged,
      List<String> failures) {
    for (int i = 0; !stop.get(); i++) {
      List<ResultUpload> results = new ArrayList<>();
      for (int b = 0; b < 40; b++) {
        results.add(result("bench-" + b, 10.0 + b, 10.1 + b, 9.9 + b, 10.05 + b, 10.0 + b));
      }
      RunUpload r = run("cygwin", "1." + client + "." + i, "shutdown-box-" + client, results.toArray(ResultUpload[]::new));
      String body = json(r);
      try {
        Http.Response answer = http.postJson("/api/v1/runs", body, TOKEN);
        if (answer.status() == 201) {
          acknowledged.put(r.id(), body);
        } else if (answer.status() != 503 && !cutByTomcat(answer)) {
          failures.add(answer.status() + " " + answer.body());
        }
      } catch (RuntimeException e) {
        // the connection was refused or closed: not acknowledged, so nothing was promised
        if (stop.get()) {
          return;
        }
        sleep();
      }
    }
  }

  /**
   * Tomcat's own 400 page (not perftrack's problem+json): the connector closed while the request was
   * still being read, seen on a loaded machine. Nothing was acknowledged, like a refused connection.
   */
  private static boolean cutByTomcat(Http.Response answer) {
    return answer.status() == 400 && answer.body().startsWith("<!doctype html") && answer.body().contains("HTTP Status 400");
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
