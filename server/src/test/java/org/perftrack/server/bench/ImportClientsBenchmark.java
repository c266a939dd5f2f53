package org.perftrack.server.bench;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import org.perftrack.wire.RunUpload;

/**
 * Imports by several clients at once: a history of {@code runs} runs × 100 results × 5 samples (10 machines, runs/10
 * versions, {@link BenchmarkRuns}) as NDJSON requests of {@code perRequest} runs to {@code POST /api/v1/runs:import},
 * in version order, sent by 1 client and by N clients at once (each takes the next request when its last one is
 * answered), each round into a product of its own, in one server process and database. Per client count: wall
 * time, CPU of the server's JVM (a process of its own, {@link BenchServer}: the clients are not counted) and of
 * every PostgreSQL process ({@code /proc}); the medians of the rounds, and the ratio N clients / 1 client. Prints
 * {@code figure} lines for {@code bench/ab.sh}, which runs this against another commit's server, alternating.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.ImportClientsBenchmark [runs] [perRequest] [rounds]
 * [clients,…]} (defaults 1000 200 3 1,4); paired with main: {@code bench/ab.sh run main 3
 * org.perftrack.server.bench.ImportClientsBenchmark 1000 200 1 1,4}.
 */
public final class ImportClientsBenchmark {

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int perRequest = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int[] clients = args.length > 3 ? Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 4};
    Path dir = Files.createTempDirectory("perftrack-import-clients");
    try (BenchServer server = BenchServer.start(dir)) {
      URI endpoint = server.uri("/api/v1/runs:import");
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      imported(http, endpoint, requests("warmup", 200, 200, new Random(1)), 1); // JIT, pools, caches
      System.out.printf(Locale.ROOT, "import clients benchmark: %d runs x %d results x %d samples, %d runs a request,"
          + " clients %s, %d rounds, %d cores%n", runs, BenchmarkRuns.RESULTS, BenchmarkRuns.SAMPLES, perRequest,
          Arrays.toString(clients), rounds, Runtime.getRuntime().availableProcessors());
      Map<Integer, List<double[]>> byClients = new java.util.TreeMap<>();
      for (int round = 1; round <= rounds; round++) {
        for (int n : clients) {
          List<byte[]> bodies = requests("r" + round + "c" + n, runs, perRequest, new Random(round));
          long jvm0 = server.jvmCpu();
          Map<Long, Long> pg0 = server.postgresCpu();
          long t0 = System.nanoTime();
          imported(http, endpoint, bodies, n);
          double[] x = {(System.nanoTime() - t0) / 1e9, (server.jvmCpu() - jvm0) / 1e9,
              UploadCpuBenchmark.delta(pg0, server.postgresCpu()) / 1e9};
          byClients.computeIfAbsent(n, k -> new ArrayList<>()).add(x);
          System.out.printf(Locale.ROOT, "round %d, %d client(s): %.2f s wall, CPU server JVM %.2f s + PostgreSQL"
              + " %.2f s%nfigure wall-%dc %.3f%nfigure cpu-%dc %.3f%n", round, n, x[0], x[1], x[2], n, x[0], n,
              x[1] + x[2]);
        }
      }
      double[] one = null;
      for (Map.Entry<Integer, List<double[]>> e : byClients.entrySet()) {
        double[] m = new double[3];
        for (int k = 0; k < 3; k++) {
          int col = k;
          double[] c = e.getValue().stream().mapToDouble(r -> r[col]).sorted().toArray();
          m[k] = c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
        }
        one = one == null ? m : one;
        System.out.printf(Locale.ROOT, "%d client(s), medians: %.2f s wall, CPU JVM %.2f s + PostgreSQL %.2f s;"
            + " wall / first count's %.2f%n", e.getKey(), m[0], m[1], m[2], m[0] / one[0]);
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir);
    }
  }

  /** The history of one product as NDJSON bodies of {@code perRequest} runs, in version order. */
  private static List<byte[]> requests(String product, int runs, int perRequest, Random random) {
    List<RunUpload> all = BenchmarkRuns.runs(product, runs, random);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += perRequest) {
      out.add(BenchmarkRuns.ndjson(all.subList(i, Math.min(all.size(), i + perRequest))));
    }
    return out;
  }

  /** Sends the bodies with {@code clients} clients at once, each the next body when its last one is answered. */
  private static void imported(HttpClient http, URI endpoint, List<byte[]> bodies, int clients) throws Exception {
    ConcurrentLinkedQueue<byte[]> queue = new ConcurrentLinkedQueue<>(bodies);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int c = 0; c < clients; c++) {
      Thread t = new Thread(() -> {
        for (byte[] body = queue.poll(); body != null; body = queue.poll()) {
          try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint)
                .header("Authorization", "Bearer " + BenchServer.TOKEN).header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("\"failed\":0")) {
              throw new IllegalStateException("import answered " + r.statusCode() + ": " + r.body());
            }
          } catch (Exception e) {
            failures.add(e);
            return;
          }
        }
      }, "import-client-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException(failures.get(0));
    }
  }

}
