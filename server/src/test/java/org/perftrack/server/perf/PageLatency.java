package org.perftrack.server.perf;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Measures every page's latency against a seeded database ({@link SeedDatabase}): starts the real
 * server on it, signs in (for the admin page), warms up, then sends N requests per page and prints
 * p50/p95/max of the server time each page reports in its {@code Server-Timing} header (security,
 * controller, SQL and template rendering), and the p95 the client saw over localhost HTTP, asking for gzip as a
 * browser does and inflating the body (KiB: as sent, compressed).
 * Run it with {@code bench/pages.sh latency [dir] [requests]}.
 */
public final class PageLatency {

  private static final String ADMIN_PASSWORD = "perf-admin-password";
  private static final String TOKEN = "perf-token-0123456789";

  private PageLatency() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db");
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    String only = args.length > 2 ? args[2] : "";
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--perftrack.embedded-db.dir=" + dir.toAbsolutePath(), "--server.port=0",
            "--perftrack.admin.password=" + ADMIN_PASSWORD, "--perftrack.bootstrap-token=" + TOKEN,
            "--logging.level.root=WARN")) {
      String base = "http://localhost:" + ctx.getEnvironment().getProperty("local.server.port");
      JdbcClient jdbc = ctx.getBean(JdbcClient.class);
      HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
      signIn(client, base);
      Map<String, IntFunction<String>> pages = pages(jdbc);
      coldPages(pages, client, base, jdbc);
      awaitChartSummaries(ctx, jdbc);
      System.out.printf(Locale.ROOT, "server time (Server-Timing), then the client's p95 over localhost HTTP%n");
      System.out.printf(Locale.ROOT, "%-24s %8s %8s %8s %10s %9s%n", "page", "p50 ms", "p95 ms", "max ms", "client p95", "wire KiB");
      // warm every page first (JIT, caches, connection pool), so that the first page measured is not penalised
      for (var page : pages.entrySet()) {
        for (int i = 0; page.getKey().startsWith(only) && i < Math.max(30, requests / 4); i++) {
          get(client, base + page.getValue().apply(i));
        }
      }
      for (var page : pages.entrySet()) {
        if (page.getKey().startsWith(only)) {
            measure(client, base, page.getKey(), page.getValue(), requests);
        }
      }
    }
  }

  /**
   * Where the server keeps the whole-history charts' summaries in the background (from start-up on, for series that
   * have none), waits until every series has them, and says how long that took: the charts are measured as a
   * visitor sees them once the server has caught up.
   */
  private static void awaitChartSummaries(ConfigurableApplicationContext ctx, JdbcClient jdbc) throws Exception {
    if (!ctx.containsBean("chartSummaryKeeper")) {
      System.out.println("chart summaries: kept at a chart's first view (no background keeper)");
      return;
    }
    long missing = -1;
    for (int i = 0; i < 1200; i++) {
      missing = jdbc.sql("""
          SELECT count(*) FROM series s JOIN product p ON p.id = s.product_id
          WHERE p.version_count > 200 AND NOT EXISTS (SELECT 1 FROM chart_summary c WHERE c.series_id = s.id)""")
          .query(Long.class).single();
      if (missing == 0) {
        break;
      }
      Thread.sleep(500);
    }
    System.out.printf(Locale.ROOT, "chart summaries: every series' kept by the background keeper %.1f s after the"
        + " server started (%d series still without)%n", (System.currentTimeMillis() - ctx.getStartupDate()) / 1e3,
        missing);
  }

  /** Each page with a generator of its paths, so that repeated requests spread over machines and series. */
  static Map<String, IntFunction<String>> pages(JdbcClient jdbc) {
    String product = SeedDatabase.PRODUCT;
    List<String> machines = jdbc.sql("""
        SELECT DISTINCT m.name FROM series s JOIN machine m ON m.id = s.machine_id JOIN product p ON p.id = s.product_id
        WHERE p.name = ? ORDER BY 1""").param(product).query(String.class).list();
    List<String> runs = jdbc.sql("SELECT id::text FROM run ORDER BY id LIMIT 500").query(String.class).list();
    List<String> series = jdbc.sql("""
        SELECT DISTINCT benchmark || '|' || metric FROM series s JOIN product p ON p.id = s.product_id
        WHERE p.name = ? ORDER BY 1""").param(product).query(String.class).list();
    List<String> versions = jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? ORDER BY v.sort_key""")
        .param(product).query(String.class).list();
    Map<String, IntFunction<String>> pages = new LinkedHashMap<>();
    pages.put("home", i -> "/");
    pages.put("product", i -> "/products/" + product);
    // the product page's second page of benchmarks (before paging: the same whole list, the parameter ignored)
    List<String> benchmarks = series.stream().map(b -> b.split("\\|")[0]).distinct().sorted().toList();
    pages.put("product (next page)", i -> "/products/" + product + "?after=" + enc(benchmarks.get(9)));
    pages.put("series (all machines)", i -> seriesPath(product, series.get(i % series.size()), null));
    pages.put("series (one machine)", i -> seriesPath(product, series.get(i % series.size()), machines.get(i % machines.size())));
    // the chart's data, which the series page's script fetches: the whole history (buckets), and a zoom
    pages.put("series chart.json (all)", i -> chartPath(product, series.get(i % series.size()), null, ""));
    pages.put("series chart.json (one)", i -> chartPath(product, series.get(i % series.size()),
        machines.get(i % machines.size()), ""));
    pages.put("series chart.json (zoom)", i -> chartPath(product, series.get(i % series.size()), null,
        "&from=" + enc(versions.get(versions.size() / 2)) + "&to=" + enc(versions.get(versions.size() / 2 + 100))));
    pages.put("series (older page)", i -> seriesPath(product, series.get(i % series.size()), null)
        + "&olderThan=" + enc(versions.get(versions.size() / 2)));
    pages.put("run", i -> "/runs/" + runs.get(i % runs.size()));
    pages.put("machine", i -> "/machines/" + enc(machines.get(i % machines.size())));
    pages.put("machine (older page)", i -> "/machines/" + enc(machines.get(i % machines.size())) + "?product="
        + product + "&olderThan=" + enc(versions.get(versions.size() / 2)));
    pages.put("login", i -> "/login");
    pages.put("admin", i -> "/admin");
    pages.put("not found", i -> "/products/no-such-product");
    List<Long> regressions = jdbc.sql("SELECT id FROM regression ORDER BY id").query(Long.class).list();
    detectionPages(pages, product, machines, versions, regressions);
    return pages;
  }

  /** The pages over detection's results: regressions (list, filtered, one) and version comparisons. */
  private static void detectionPages(Map<String, IntFunction<String>> pages, String product, List<String> machines,
      List<String> versions, List<Long> regressions) {
    String head = versions.get(versions.size() - 1);
    String step = versions.get(versions.size() - 3);
    String before = versions.get(versions.size() - 4);
    pages.put("regressions", i -> "/regressions");
    pages.put("regressions (every status)", i -> "/regressions?status=all");
    if (regressions.size() > 1) { // the page older than the newest regression but one (before paging: the first)
      pages.put("regressions (older page)", i -> "/regressions?status=all&before="
          + regressions.get(regressions.size() - 2));
    }
    pages.put("regressions (filtered)", i -> "/regressions?product=" + product + "&machine="
        + enc(machines.get(i % machines.size())) + "&status=all&size=1.1");
    if (!regressions.isEmpty()) {
      pages.put("regression", i -> "/regressions/" + regressions.get(i % regressions.size()));
    }
    pages.put("compare (one machine)", i -> "/compare?product=" + product + "&machine="
        + enc(machines.get(i % machines.size())) + "&base=" + enc(before) + "&head=" + enc(step));
    pages.put("compare (all machines)", i -> "/compare?product=" + product
        + "&base=" + enc(versions.get(versions.size() - 2 - i % 20)) + "&head=" + enc(head));
    pages.put("compare.csv (all)", i -> "/compare.csv?product=" + product + "&base=" + enc(before) + "&head=" + enc(step));
  }

  /**
   * The cached views measured as the first visitor after new data sees them: before each request a
   * small run of another product is uploaded, which moves the data stamp and empties the caches
   * (the upload is not timed); comparisons with a different base each time are never cached.
   */
  private static void coldPages(Map<String, IntFunction<String>> pages, HttpClient client, String base,
      JdbcClient jdbc) {
    String product = SeedDatabase.PRODUCT;
    List<String> versions = jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? ORDER BY v.sort_key""")
        .param(product).query(String.class).list();
    String head = versions.get(versions.size() - 1);
    int[] uploads = {0};
    pages.put("product (cold cache)", i -> {
      bump(client, base, uploads[0]++);
      return "/products/" + product;
    });
    pages.put("compare all (cold cache)", i -> {
      bump(client, base, uploads[0]++);
      return "/compare?product=" + product + "&base=" + enc(versions.get(versions.size() - 2 - i % 150)) + "&head="
          + enc(head);
    });
  }

  private static void bump(HttpClient client, String base, int n) {
    String run = """
        {"id": "%s", "product": "perf-bump", "version": "1.%d", "machine": {"name": "perf-bump"}, "suite": "posix",
         "results": [{"benchmark": "null-call", "metric": "time-per-op", "unit": "ns", "direction": "lower_is_better",
                      "samples": [1.0, 1.1, 0.9]}]}""".formatted(java.util.UUID.randomUUID(), n);
    try {
      client.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs")).header("Authorization", "Bearer " + TOKEN)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(run)).build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void measure(HttpClient http, String base, String name, IntFunction<String> path, int requests)
      throws Exception {
    double[] server = new double[requests];
    double[] client = new double[requests];
    long bytes = 0;
    int status = 0;
    for (int i = 0; i < requests; i++) {
      String url = base + path.apply(i);
      long t = System.nanoTime();
      HttpResponse<byte[]> r = get(http, url);
      unzipped(r); // a browser waits for the transfer and the inflating too
      client[i] = (System.nanoTime() - t) / 1e6;
      server[i] = r.headers().firstValue("Server-Timing").map(PageLatency::duration).orElse(Double.NaN);
      bytes += r.body().length;
      status = r.statusCode();
    }
    Arrays.sort(server);
    Arrays.sort(client);
    System.out.printf(Locale.ROOT, "%-24s %8.1f %8.1f %8.1f %10.1f %9.1f   HTTP %d%n", name, server[requests / 2],
        p95(server), server[requests - 1], p95(client), bytes / 1024.0 / requests, status);
  }

  private static double p95(double[] sorted) {
    return sorted[(int) Math.ceil(sorted.length * 0.95) - 1];
  }

  /** "app;dur=12.3" → 12.3 */
  private static double duration(String serverTiming) {
    return Double.parseDouble(serverTiming.substring(serverTiming.indexOf("dur=") + 4));
  }

  /** Asks for gzip as a browser does ({@code Accept-Encoding}); the body as it came over the wire. */
  private static HttpResponse<byte[]> get(HttpClient client, String url) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(url))
        .header("Accept", url.contains("/series/chart") ? "application/json" : "text/html")
        .header("Accept-Encoding", "gzip, deflate, br").build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The body inflated when it came gzipped. */
  private static byte[] unzipped(HttpResponse<byte[]> r) throws java.io.IOException {
    if (!r.headers().firstValue("Content-Encoding").orElse("").equalsIgnoreCase("gzip")) {
      return r.body();
    }
    try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(r.body()))) {
      return in.readAllBytes();
    }
  }

  private static void signIn(HttpClient client, String base) throws Exception {
    String page = client.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    if (!csrf.find()) {
      throw new IllegalStateException("no CSRF token on /login");
    }
    client.send(HttpRequest.newBuilder(URI.create(base + "/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("username=admin&password=" + enc(ADMIN_PASSWORD)
            + "&_csrf=" + enc(csrf.group(1)))).build(), HttpResponse.BodyHandlers.discarding());
  }

  private static String seriesPath(String product, String benchmarkMetric, String machine) {
    String[] bm = benchmarkMetric.split("\\|");
    return "/products/" + product + "/series?benchmark=" + enc(bm[0]) + "&metric=" + enc(bm[1])
        + (machine == null ? "" : "&machine=" + enc(machine));
  }

  private static String chartPath(String product, String benchmarkMetric, String machine, String range) {
    String[] bm = benchmarkMetric.split("\\|");
    return "/products/" + product + "/series/chart?benchmark=" + enc(bm[0]) + "&metric=" + enc(bm[1])
        + (machine == null ? "" : "&machine=" + enc(machine)) + range;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

}
