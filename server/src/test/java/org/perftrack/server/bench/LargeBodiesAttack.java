package org.perftrack.server.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.LargeBodies;
import org.perftrack.server.support.RawPost;

/**
 * The memory attack of issue 26 item 6 against a server jar in a JVM of its own: {@code clients} concurrent bodies
 * of {@code mb} MB with one-digit samples (the most heap per byte), for each kind (upload, {@code ?format=}, NDJSON
 * import, CSV import), sent from four local addresses while another address checks health every 250 ms and sends
 * a small upload every second. Prints the answers by status, health and small uploads during the attack, the heap
 * (G1's log: most in use before a collection, most still live after one) and the OutOfMemoryErrors in the log.
 * Run: {@code bench/run-main.sh org.perftrack.server.bench.LargeBodiesAttack server/target/perftrack-server.jar
 * [clients=64] [mb=16] [xmx=1g] [kinds=UPLOAD,FORMAT,IMPORT,CSV] [server args…]}
 */
public final class LargeBodiesAttack {

  static final String TOKEN = "large-bodies-attack-token-0123456789";
  private static final Pattern GC = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

  private LargeBodiesAttack() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int mb = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    String xmx = args.length > 3 ? args[3] : "1g";
    String kinds = args.length > 4 ? args[4] : "UPLOAD,FORMAT,IMPORT,CSV";
    List<String> extra = args.length > 5 ? List.of(args).subList(5, args.length) : List.of();
    Path dir = Files.createTempDirectory("perftrack-attack");
    Path log = dir.resolve("server.log");
    Path gc = dir.resolve("gc.log");
    int port = IntegrationTest.freePort();
    List<String> cmd = new ArrayList<>(List.of("java", "-Xmx" + xmx, "-Xlog:gc:file=" + gc, "-jar", jar.toString(),
        "--server.port=" + port, "--perftrack.embedded-db.dir=" + dir.resolve("db"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=pw", "--spring.main.banner-mode=off"));
    cmd.addAll(extra);
    Process server = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (RawPost.send(port, "127.0.0.1", "GET", "/actuator/health", null, null).status() != 200) {
        if (!server.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("the server did not start:\n" + Files.readString(log));
        }
        Thread.sleep(500);
      }
      System.out.printf("server %s, -Xmx%s, %s; %d clients x %d MB per kind%n", jar, xmx, extra, clients, mb);
      for (String k : kinds.split(",")) {
        attack(port, LargeBodies.Kind.valueOf(k), clients, mb);
      }
    } finally {
      server.destroy();
      server.waitFor();
    }
    long before = 0;
    long after = 0;
    long max = 0;
    for (String line : Files.readAllLines(gc)) {
      Matcher m = GC.matcher(line);
      if (m.find()) {
        before = Math.max(before, Long.parseLong(m.group(1)));
        after = Math.max(after, Long.parseLong(m.group(2)));
        max = Math.max(max, Long.parseLong(m.group(3)));
      }
    }
    String text = Files.readString(log);
    System.out.printf("heap: at most %d MB in use before a collection, %d MB live after one (heap %d MB)%n", before,
        after, max);
    System.out.printf("OutOfMemoryError in the server log: %d; 500 answers logged: %d; log %s%n",
        count(text, "OutOfMemoryError"), count(text, "status=500") + count(text, "\"status\":500"), log);
  }

  private static void attack(int port, LargeBodies.Kind kind, int clients, int mb) throws Exception {
    byte[] middle = LargeBodies.middle(kind, (mb << 20) - 4096); // head and tail within the limit
    byte[] tail = LargeBodies.tail(kind);
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong healthWorst = new AtomicLong();
    Map<Integer, Integer> health = new ConcurrentHashMap<>();
    Map<Integer, Integer> small = new ConcurrentHashMap<>();
    Thread checker = new Thread(() -> {
      int i = 0;
      while (running.get()) {
        long t = System.nanoTime();
        health.merge(RawPost.send(port, "127.0.0.9", "GET", "/actuator/health", null, null).status(), 1,
            Integer::sum);
        healthWorst.accumulateAndGet((System.nanoTime() - t) / 1_000_000, Math::max);
        if (i++ % 4 == 0) {
          String run = "{\"id\":\"" + UUID.randomUUID() + "\",\"product\":\"everyday\",\"version\":\"1." + i
              + "\",\"machine\":{\"name\":\"m1\"},\"results\":[{\"benchmark\":\"b\",\"metric\":\"time\","
              + "\"unit\":\"ns\",\"direction\":\"lower_is_better\",\"samples\":[1.5,1.6,1.4]}]}";
          small.merge(RawPost.send(port, "127.0.0.10", "POST", "/api/v1/runs", "application/json", TOKEN,
              run.getBytes()).status(), 1, Integer::sum);
        }
        try {
          Thread.sleep(250);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    checker.start();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<RawPost.Answer>> answers = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; i < clients; i++) {
      int n = i;
      answers.add(pool.submit(() -> RawPost.send(port, "127.0.0." + (1 + n % 4), "POST", LargeBodies.path(kind, n),
          kind.contentType, TOKEN, LargeBodies.head(kind, n), middle, tail)));
    }
    Map<Integer, Integer> statuses = new TreeMap<>();
    int retryAfter = 0;
    for (Future<RawPost.Answer> f : answers) {
      RawPost.Answer a = f.get();
      statuses.merge(a.status(), 1, Integer::sum);
      retryAfter += a.status() == 503 && a.header("Retry-After") != null ? 1 : 0;
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    pool.shutdown();
    running.set(false);
    checker.join();
    System.out.printf("%-6s answers %s (503 with Retry-After: %d) in %.1f s; health during it %s, slowest %d ms;"
        + " small uploads %s%n", kind, statuses, retryAfter, seconds, new TreeMap<>(health), healthWorst.get(),
        new TreeMap<>(small));
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }
}
