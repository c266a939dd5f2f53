package org.perftrack.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.security.ApiTokens;
import org.perftrack.server.security.Scope;
import org.perftrack.wire.RunUpload;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Deleting a product with a million samples (2,000 runs × 100 results × 5 samples) while another product keeps
 * uploading and the home page is read: how long the delete and the purge take, and the upload and page latencies
 * during the purge against the same process's latencies just before it (ratios, not absolute figures).
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.ProductDeletionBenchmark [runs] [--spring.property=value…]}
 */
public final class ProductDeletionBenchmark {

  private static final String TOKEN = "bench-token-0123456789";
  private static final String ADMIN = "bench-admin-token-0123456789";

  public static void main(String[] args) throws Exception {
    List<String> plain = Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
    int runs = plain.isEmpty() ? 2000 : Integer.parseInt(plain.get(0));
    List<String> springArgs = new ArrayList<>(List.of("--server.port=0", "--perftrack.bootstrap-token=" + TOKEN,
        "--perftrack.admin.password=bench", "--perftrack.alerts.enabled=false", "--logging.level.root=WARN",
        "--perftrack.curation.keep-deleted=0s", "--perftrack.curation.purge-every=100ms",
        "--perftrack.embedded-db.dir=" + Files.createTempDirectory("perftrack-bench").resolve("db")));
    Arrays.stream(args).filter(a -> a.startsWith("--")).forEach(springArgs::add);
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run(springArgs.toArray(String[]::new))) {
      app.getBean(ApiTokens.class).register("bench-admin", ADMIN, "bench", EnumSet.of(Scope.ADMIN));
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      HttpClient http = HttpClient.newHttpClient();
      for (int done = 0; done < runs; done += 1000) {
        send(http, post(base + "/api/v1/runs:import", TOKEN, "application/x-ndjson",
            BenchmarkRuns.ndjson(BenchmarkRuns.runs("doomed", Math.min(1000, runs - done), new Random(done)))), 200);
      }
      List<RunUpload> other = BenchmarkRuns.runs("other", 4000, new Random(99));
      int next = 0;
      for (; next < 50; next++) { // JIT, pools, caches
        upload(http, base, other.get(next));
      }
      List<Double> uploadsBefore = new ArrayList<>();
      List<Double> pagesBefore = new ArrayList<>();
      for (int i = 0; i < 150; i++, next++) {
        uploadsBefore.add(upload(http, base, other.get(next)));
        if (i % 5 == 0) {
          pagesBefore.add(page(http, base));
        }
      }

      long t0 = System.nanoTime();
      String answer = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/products/doomed"))
          .header("Authorization", "Bearer " + ADMIN).DELETE(), 200);
      double deleteMs = (System.nanoTime() - t0) / 1e6;
      long deletion = Json.MAPPER.readTree(answer).get("deletionId").asLong();
      List<Double> uploadsDuring = new ArrayList<>();
      List<Double> pagesDuring = new ArrayList<>();
      int pageFailures = 0;
      while (purging(http, base, deletion) && next < other.size()) {
        uploadsDuring.add(upload(http, base, other.get(next++)));
        if (uploadsDuring.size() % 5 == 0) {
          double ms = page(http, base);
          if (ms < 0) {
            pageFailures++;
          } else {
            pagesDuring.add(ms);
          }
        }
      }
      double purgeSeconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("product deletion benchmark: %d runs × %d results × %d samples = %,d samples, %d cores%n",
          runs, BenchmarkRuns.RESULTS, BenchmarkRuns.SAMPLES, (long) runs * BenchmarkRuns.RESULTS * BenchmarkRuns.SAMPLES,
          Runtime.getRuntime().availableProcessors());
      System.out.printf("delete (soft, the API's answer): %.0f ms; gone for good after %.1f s%n", deleteMs, purgeSeconds);
      System.out.printf("uploads to another product: p50 %.0f → %.0f ms, p95 %.0f → %.0f ms (×%.2f) before → during"
              + " the purge (%d before, %d during)%n", pct(uploadsBefore, 50), pct(uploadsDuring, 50),
          pct(uploadsBefore, 95), pct(uploadsDuring, 95), pct(uploadsDuring, 95) / pct(uploadsBefore, 95),
          uploadsBefore.size(), uploadsDuring.size());
      System.out.printf("home page: p95 %.0f → %.0f ms, %d failed during the purge%n", pct(pagesBefore, 95),
          pct(pagesDuring, 95), pageFailures);
    }
  }

  private static boolean purging(HttpClient http, String base, long deletion) throws Exception {
    String list = send(http, HttpRequest.newBuilder(URI.create(base + "/api/v1/deletions"))
        .header("Authorization", "Bearer " + ADMIN).GET(), 200);
    return list.contains("\"id\":" + deletion + ",");
  }

  private static double upload(HttpClient http, String base, RunUpload run) throws Exception {
    long t = System.nanoTime();
    send(http, post(base + "/api/v1/runs", TOKEN, "application/json",
        Json.MAPPER.writeValueAsString(run).getBytes(java.nio.charset.StandardCharsets.UTF_8)), 201);
    return (System.nanoTime() - t) / 1e6;
  }

  /** The home page's latency in ms, or -1 when it did not answer 200. */
  private static double page(HttpClient http, String base) throws Exception {
    long t = System.nanoTime();
    int status = http.send(HttpRequest.newBuilder(URI.create(base + "/")).GET().build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
    return status == 200 ? (System.nanoTime() - t) / 1e6 : -1;
  }

  private static HttpRequest.Builder post(String url, String token, String type, byte[] body) {
    return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
        .header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body));
  }

  private static String send(HttpClient http, HttpRequest.Builder request, int expected) throws Exception {
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != expected) {
      throw new IllegalStateException(r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  private static double pct(List<Double> values, int p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }
}
