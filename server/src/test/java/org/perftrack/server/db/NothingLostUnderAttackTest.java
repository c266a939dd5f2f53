package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * Issue 12, "done when": the attack's figures hold. A server in a JVM of its own takes uploads from 12
 * clients that create the same new versions, machines and series at the same moment, each sending every
 * acknowledged run once more (it must be "already had it", 200) and every unanswered one again until it
 * is acknowledged, as the agent does. Mid-stream the server's JVM is killed with {@code kill -9} and
 * started again on its data directory; later its PostgreSQL postmaster is killed (the server starts it
 * again). Then the database must hold every acknowledged run exactly once with exactly its results and
 * samples, nothing that was never sent, and no upload may ever have been answered 500. Nothing here
 * depends on the machine's speed: every wait is bounded far beyond need.
 */
class NothingLostUnderAttackTest {

  static final String TOKEN = "attack-token-0123456789";
  static final String PRODUCT = "attack";
  static final int CLIENTS = 12;
  /** New acknowledgements between two events (start, kill -9 of the JVM, kill -9 of the postmaster, end). */
  static final int PER_PHASE = 3 * CLIENTS;
  static final long PHASE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(240);

  @TempDir
  Path dir;

  /** One upload as sent: its body, and its results' samples by benchmark. */
  record Sent(String body, String version, String machine, Map<String, List<Double>> samples) {}

  /** A kill: when, and when the first request sent after it was acknowledged. */
  static final class Kill {
    final long at = System.nanoTime();
    final AtomicLong firstAck = new AtomicLong();

    long recoveryMillis() {
      return TimeUnit.NANOSECONDS.toMillis(firstAck.get() - at);
    }
  }

  private final Map<String, Sent> sent = new ConcurrentHashMap<>();
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final Map<String, LongAdder> statuses = new ConcurrentHashMap<>();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger resends = new AtomicInteger();
  private final AtomicInteger retries = new AtomicInteger();
  private final AtomicInteger storedBeforeAnswer = new AtomicInteger();
  private final AtomicReference<Http> current = new AtomicReference<>();
  private final AtomicReference<Kill> lastKill = new AtomicReference<>();
  private final AtomicBoolean stop = new AtomicBoolean();

  @Test
  void twelveClientsWithResendsThroughKill9OfTheServerAndOfPostgresLoseAndDuplicateNothing() throws Exception {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    String[] args = {"--perftrack.bootstrap-token=" + TOKEN};
    long t0 = System.nanoTime();
    ServerProcess server = ServerProcess.start(data, dir.resolve("first.log"), args);
    ServerProcess second = null;
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      current.set(server.http());
      CountDownLatch go = new CountDownLatch(1);
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        clients.submit(() -> {
          go.await();
          client(client);
          return null;
        });
      }
      go.countDown();

      awaitAcknowledged(PER_PHASE, server);
      Kill jvm = new Kill();
      lastKill.set(jvm);
      server.kill();
      int ackedAtJvmKill = acknowledged.size();
      long restart0 = System.nanoTime();
      second = ServerProcess.start(data, dir.resolve("second.log"), args);
      long restartMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restart0);
      assertThat(second.log()).as("the orphan postmaster of the killed server was stopped").contains("left running in");
      current.set(second.http());
      awaitRecovered(jvm, second);

      awaitAcknowledged(acknowledged.size() + PER_PHASE, second);
      ProcessHandle postmaster = OrphanPostmaster.running(data).orElseThrow();
      Kill db = new Kill();
      lastKill.set(db);
      postmaster.destroyForcibly();
      int ackedAtDbKill = acknowledged.size();
      awaitRecovered(db, second);
      assertThat(OrphanPostmaster.running(data).orElseThrow().pid()).isNotEqualTo(postmaster.pid());

      awaitAcknowledged(acknowledged.size() + PER_PHASE, second);
      stop.set(true);
      clients.shutdown();
      assertThat(clients.awaitTermination(240, TimeUnit.SECONDS)).as("the clients finished their last runs").isTrue();

      Map<String, Map<String, List<Double>>> stored = stored(data);
      long totalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      System.out.printf("NothingLostUnderAttackTest: %d clients, %d runs sent, %d acknowledged (%d at the JVM kill, %d at the"
              + " postmaster kill), %d resends answered 200, %d retries (%d of them found the run stored already),"
              + " statuses %s; JVM kill -9: restart %d ms, first acknowledgement %d ms after the kill;"
              + " postmaster kill -9: first acknowledgement %d ms after the kill; %d runs stored; total %d ms%n",
          CLIENTS, sent.size(), acknowledged.size(), ackedAtJvmKill, ackedAtDbKill, resends.get(), retries.get(),
          storedBeforeAnswer.get(), new TreeMap<>(counts()), restartMillis, jvm.recoveryMillis(), db.recoveryMillis(),
          stored.size(), totalMillis);

      assertThat(failures).as("answers that were neither 201, 200 nor 503; log:\n" + second.log()).isEmpty();
      assertThat(counts()).doesNotContainKey("500");
      assertThat(acknowledged).as("every run sent was acknowledged in the end").hasSameSizeAs(sent.keySet());
      assertThat(stored.keySet()).as("no run stored that was never sent").isSubsetOf(sent.keySet());
      assertThat(stored.keySet()).as("every acknowledged run stored").containsAll(acknowledged);
      for (String id : acknowledged) {
        assertThat(stored.get(id)).as("run %s stored once, with exactly its results and samples", id)
            .isEqualTo(sent.get(id).samples());
      }
      assertThat(runRows(data)).as("one run row per run: %s", "no duplicates").isEqualTo(stored.size());
    } finally {
      stop.set(true);
      clients.shutdownNow();
      server.close();
      if (second != null) {
        second.close();
      }
    }
  }

  /** Uploads runs until told to stop; the run in hand is sent until acknowledged, and then once more. */
  private void client(int client) {
    for (int i = 0; !stop.get(); i++) {
      // every client makes the same new version at about the same moment, and every fourth round a new machine
      String version = "3.0." + i;
      String machine = "attack-box-" + (i / 4);
      List<ResultUpload> results = new ArrayList<>();
      Map<String, List<Double>> samples = new TreeMap<>();
      for (int b = 0; b < 3; b++) {
        double base = 10 * (b + 1) + client * 0.001 + (i % 7) * 0.0001;
        ResultUpload r = result("bench-" + b, base, base + 0.1, base - 0.1, base + 0.05, base);
        results.add(r);
        samples.put(r.benchmark(), r.samples());
      }
      RunUpload run = run(PRODUCT, version, machine, results.toArray(ResultUpload[]::new));
      String body = json(run);
      sent.put(run.id(), new Sent(body, version, machine, samples));
      int created = sendUntilAnswered(run.id(), body, false);
      if (created < 0) {
        return; // gave up: the test fails on the count
      }
      acknowledged.add(run.id());
      int again = sendUntilAnswered(run.id(), body, true);
      if (again == 200) {
        resends.incrementAndGet();
      } else if (again > 0) {
        failures.add("the resend of acknowledged run " + run.id() + " was answered " + again);
      }
    }
  }

  /**
   * Sends one run until it gets an answer other than 503 or a broken connection, as the agent does. Returns
   * the final status, or -1 when it gave up (far beyond any recovery time).
   */
  private int sendUntilAnswered(String id, String body, boolean resend) {
    long giveUp = System.nanoTime() + PHASE_LIMIT_NANOS;
    for (int attempt = 0; System.nanoTime() < giveUp; attempt++) {
      if (attempt > 0 && !resend) {
        retries.incrementAndGet();
      }
      long started = System.nanoTime();
      int status;
      String answer;
      try {
        Http.Response r = current.get().postJson("/api/v1/runs", body, TOKEN);
        status = r.status();
        answer = r.body();
      } catch (RuntimeException e) {
        count("connection");
        pause();
        continue;
      }
      count(Integer.toString(status));
      if (status == 503) {
        pause();
        continue;
      }
      if (status == 201 || status == 200) {
        if (!answer.contains("\"id\":\"" + id + "\"")) {
          failures.add("an answer " + status + " to run " + id + " names another run: " + answer);
        }
        if (resend && status != 200) {
          failures.add("acknowledged run " + id + " was not there when sent again: " + status);
        }
        if (!resend && status == 200) {
          storedBeforeAnswer.incrementAndGet(); // stored, but its answer was lost (kill) before an acknowledgement
        }
        Kill k = lastKill.get();
        if (k != null && started > k.at) {
          k.firstAck.compareAndSet(0, System.nanoTime());
        }
        return status;
      }
      failures.add((resend ? "resend of " : "") + "run " + id + ": " + status + " " + answer);
      return status;
    }
    failures.add("run " + id + " was never answered within " + TimeUnit.NANOSECONDS.toSeconds(PHASE_LIMIT_NANOS) + " s");
    return -1;
  }

  private void count(String status) {
    statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
  }

  private Map<String, Long> counts() {
    Map<String, Long> out = new HashMap<>();
    statuses.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void awaitAcknowledged(int count, ServerProcess server) throws InterruptedException {
    long deadline = System.nanoTime() + PHASE_LIMIT_NANOS;
    while (acknowledged.size() < count && failures.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(failures).as("log:\n" + server.log()).isEmpty();
    assertThat(acknowledged.size()).as("runs acknowledged; log:\n" + server.log()).isGreaterThanOrEqualTo(count);
  }

  private void awaitRecovered(Kill kill, ServerProcess server) throws InterruptedException {
    long deadline = System.nanoTime() + PHASE_LIMIT_NANOS;
    while (kill.firstAck.get() == 0 && failures.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(failures).as("log:\n" + server.log()).isEmpty();
    assertThat(kill.firstAck.get()).as("an upload was acknowledged after the kill; log:\n" + server.log()).isNotZero();
  }

  /** The stored runs of the product: run id → samples by benchmark, each run's results read from the database. */
  private static Map<String, Map<String, List<Double>>> stored(Path data) throws Exception {
    Map<String, Map<String, List<Double>>> out = new HashMap<>();
    try (Connection c = connect(data); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("""
            SELECT r.id, se.benchmark, res.samples FROM run r
              JOIN product p ON p.id = r.product_id
              LEFT JOIN result res ON res.run_id = r.id LEFT JOIN series se ON se.id = res.series_id
            WHERE p.name = 'attack'""")) {
      while (rs.next()) {
        Map<String, List<Double>> results = out.computeIfAbsent(rs.getString(1), k -> new TreeMap<>());
        String benchmark = rs.getString(2);
        if (benchmark == null) {
          continue; // a run without results: its map stays empty and differs from what was sent
        }
        Array a = rs.getArray(3);
        List<Double> samples = new ArrayList<>();
        for (Object o : (Object[]) a.getArray()) {
          samples.add(((Number) o).doubleValue());
        }
        if (results.put(benchmark, samples) != null) {
          results.put(benchmark + " (twice)", samples); // a duplicated result: differs from what was sent
        }
      }
    }
    return out;
  }

  private static long runRows(Path data) throws Exception {
    try (Connection c = connect(data); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = 'attack'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The running server's embedded database, with the password it keeps in its data directory. */
  private static Connection connect(Path data) throws Exception {
    List<String> pid = Files.readAllLines(data.resolve("postmaster.pid"));
    int port = Integer.parseInt(pid.get(3).strip());
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", EmbeddedPostgresServer.USER,
        new DbPassword(data).value());
  }
}
