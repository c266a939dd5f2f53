package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.LargeBodies;
import org.perftrack.server.support.RawPost;
import org.perftrack.server.support.ServerProcess;

/**
 * Issue 26 item 6: concurrent large bodies written to take the most heap per byte (one-digit samples, two million
 * of them: the run is refused for its size, but only once it was read) as uploads,
 * {@code ?format=} files and NDJSON and CSV imports, against a server in a JVM of its own with a 384 MB heap. Each
 * body reserves what it takes while stored from the body-memory budget (half the heap), and an import holds at most
 * two of its lines however long it is, so the excess is answered 503 with Retry-After at once; health and small
 * uploads from another address go on, and nothing runs out of memory. Reserving 6 bytes per byte (too few for such
 * samples) let eight bodies in at once, and an import held three batches of lines: OutOfMemoryError.
 */
class LargeBodiesTest {

  static final String TOKEN = "large-bodies-token-0123456789";
  static final int CLIENTS = 8;
  static final int BYTES = 4 << 20;

  @TempDir
  Path dir;

  @Test
  void largeBodiesBeyondTheHeapBudgetAre503WhileHealthAndSmallUploadsGoOn() throws Exception {
    try (ServerProcess server = ServerProcess.start(MigratedData.copyTo(dir.resolve("data")), dir.resolve("server.log"),
        "--perftrack.bootstrap-token=" + TOKEN)) {
      int port = Integer.parseInt(server.base().substring(server.base().lastIndexOf(':') + 1));
      for (LargeBodies.Kind kind : LargeBodies.Kind.values()) {
        Map<Integer, Integer> health = new ConcurrentHashMap<>();
        AtomicBoolean attacking = new AtomicBoolean(true);
        Thread checker = new Thread(() -> {
          while (attacking.get()) {
            health.merge(RawPost.send(port, "127.0.0.9", "GET", "/actuator/health", null, null).status(), 1,
                Integer::sum);
            try {
              Thread.sleep(200);
            } catch (InterruptedException e) {
              return;
            }
          }
        });
        checker.start();
        List<RawPost.Answer> answers = attack(port, kind);
        attacking.set(false);
        checker.join();

        Map<Integer, Integer> statuses = new TreeMap<>();
        answers.forEach(a -> statuses.merge(a.status(), 1, Integer::sum));
        assertThat(server.log()).as(kind + ": " + statuses).doesNotContain("OutOfMemoryError");
        // read whole: stored (an import's lines), or a 400 for a run of more samples than a run may have
        assertThat(statuses.keySet()).as(kind + " answers").isSubsetOf(200, 201, 400, 503);
        assertThat(statuses.get(503)).as(kind + ": the excess is refused " + statuses).isNotNull();
        assertThat(statuses.get(503)).as(kind + ": some are read " + statuses).isLessThan(CLIENTS);
        for (RawPost.Answer refused : answers.stream().filter(a -> a.status() == 503).toList()) {
          assertThat(refused.header("Retry-After")).isNotNull();
          assertThat(refused.body()).contains("perftrack.limits.body-memory");
        }
        assertThat(health.keySet()).as(kind + ": health during the attack " + health).containsOnly(200);
        assertThat(smallUpload(port, kind.ordinal()).status()).as(kind + ": a small upload after it").isEqualTo(201);
      }
      assertThat(server.isAlive()).isTrue();
      assertThat(server.log()).doesNotContain("OutOfMemoryError");
    }
  }

  /** {@link #CLIENTS} bodies of {@link #BYTES} at once, from four addresses. */
  private static List<RawPost.Answer> attack(int port, LargeBodies.Kind kind) throws Exception {
    byte[] middle = LargeBodies.middle(kind, BYTES);
    byte[] tail = LargeBodies.tail(kind);
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<RawPost.Answer>> sent = new ArrayList<>();
      for (int i = 0; i < CLIENTS; i++) {
        int n = i;
        sent.add(pool.submit(() -> RawPost.send(port, "127.0.0." + (1 + n % 4), "POST", LargeBodies.path(kind, n),
            kind.contentType, TOKEN, LargeBodies.head(kind, n), middle, tail)));
      }
      List<RawPost.Answer> answers = new ArrayList<>();
      for (Future<RawPost.Answer> f : sent) {
        answers.add(f.get());
      }
      return answers;
    } finally {
      pool.shutdown();
    }
  }

  private static RawPost.Answer smallUpload(int port, int i) {
    String run = "{\"id\":\"" + UUID.randomUUID() + "\",\"product\":\"everyday\",\"version\":\"1." + i
        + "\",\"machine\":{\"name\":\"m1\"},\"results\":[{\"benchmark\":\"b\",\"metric\":\"time\",\"unit\":\"ns\","
        + "\"direction\":\"lower_is_better\",\"samples\":[1.5,1.6,1.4]}]}";
    return RawPost.send(port, "127.0.0.10", "POST", "/api/v1/runs", "application/json", TOKEN, run.getBytes());
  }
}
