package org.perftrack.server.perf;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of the pages' SQL on a seeded database, to check that they
 * probe indexes instead of scanning all results. The statements are read from the classes that run
 * them (their {@code static final} text), so this shows the SQL the pages really send.
 * Run it with {@code bench/pages.sh explain [dir]}; it ends with one line per statement: the rows each table gave
 * (rows × loops of its scans), so a read that grows with history stands out.
 */
public final class ExplainQueries {

  private ExplainQueries() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db");
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--perftrack.embedded-db.dir=" + dir.toAbsolutePath(), "--server.port=0", "--logging.level.root=WARN")) {
      JdbcClient jdbc = ctx.getBean(JdbcClient.class);
      // the series page's chart once, as a visitor's browser fetches it: it keeps its blocks' summaries
      String base = "http://localhost:" + ctx.getEnvironment().getProperty("local.server.port");
      var client = java.net.http.HttpClient.newHttpClient();
      var chart = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/products/"
          + SeedDatabase.PRODUCT + "/series/chart?benchmark=write-64b&metric=time-per-op")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      System.out.println("==== the whole-history chart: HTTP " + chart.statusCode() + ", " + chart.body().length()
          + " characters");
      Map<String, String> summary = new LinkedHashMap<>();
      for (var e : statements(jdbc).entrySet()) {
        String[] target = e.getKey().split("#");
        String sql = sql(target[0], target[1]);
        System.out.println("==== " + e.getKey());
        List<String> plan = jdbc.sql("EXPLAIN (ANALYZE, BUFFERS) " + sql).params(e.getValue()).query(String.class).list();
        plan.forEach(System.out::println);
        summary.put(e.getKey().substring(e.getKey().lastIndexOf('.') + 1), reads(plan));
      }
      System.out.println("==== rows read per table (rows × loops of its scans; 'seq' marks a sequential scan; tables that"
          + " grow with history: " + String.join(", ", HISTORY) + ")");
      summary.forEach((statement, reads) -> System.out.printf("%-40s %s%n", statement, reads));
      System.out.println("(SeriesQueries#POINTS is not a page: the REST API's GET /api/v1/series, every point by its"
          + " contract, shown for comparison; NEWEST_POINTS is the same with last=50)");
    }
  }

  /** The tables whose rows grow with history (versions, runs, samples). */
  static final List<String> HISTORY = List.of("result", "detection_point", "run", "version", "chart_boundary",
      "chart_summary");

  private static final Pattern SCAN = Pattern.compile(
      "(?<!Bitmap )(Seq Scan|Index Only Scan|Index Scan|Bitmap Heap Scan)(?: Backward)?(?: using \\S+)? on (\\w+).*"
      + "actual time=\\S+ rows=(\\d+) loops=(\\d+)");
  private static final Pattern TIME = Pattern.compile("Execution Time: (\\S+) ms");

  /** One line: per table the rows its scans returned (rows × loops), "seq" where sequential, and the time. */
  static String reads(List<String> plan) {
    Map<String, long[]> byTable = new java.util.TreeMap<>();
    Map<String, Boolean> seq = new java.util.HashMap<>();
    String time = "?";
    for (String line : plan) {
      Matcher m = SCAN.matcher(line);
      if (m.find()) {
        byTable.computeIfAbsent(m.group(2), t -> new long[1])[0] += Long.parseLong(m.group(3)) * Long.parseLong(m.group(4));
        seq.merge(m.group(2), m.group(1).equals("Seq Scan"), Boolean::logicalOr);
      }
      Matcher t = TIME.matcher(line);
      if (t.find()) {
        time = t.group(1);
      }
    }
    StringBuilder out = new StringBuilder(String.format("%9s ms ", time));
    byTable.forEach((table, rows) -> out.append(String.format(" %s%s %,d", table, seq.get(table) ? " (seq)" : "", rows[0])));
    return out.toString();
  }

  /** Each statement (class#field) with parameters typical of the seeded database. */
  static Map<String, List<Object>> statements(JdbcClient jdbc) {
    long product = jdbc.sql("SELECT id FROM product WHERE name = ?").param(SeedDatabase.PRODUCT).query(Long.class).single();
    long machine = jdbc.sql("SELECT min(id) FROM machine").query(Long.class).single();
    long series = jdbc.sql("SELECT min(id) FROM series WHERE product_id = ?").param(product).query(Long.class).single();
    String windowStart = jdbc.sql("SELECT min(sort_key) FROM (SELECT sort_key FROM version WHERE product_id = ? "
        + "ORDER BY sort_key DESC LIMIT 40) w").param(product).query(String.class).single();
    java.util.UUID run = jdbc.sql("SELECT id FROM run LIMIT 1").query(java.util.UUID.class).single();
    Long[] chart = jdbc.sql("SELECT id FROM series WHERE product_id = ? AND benchmark = 'write-64b' "
        + "AND metric = 'time-per-op' ORDER BY id").param(product).query(Long.class).list().toArray(Long[]::new);
    Long[] page = jdbc.sql("SELECT id FROM version WHERE product_id = ? ORDER BY sort_key DESC LIMIT 50")
        .param(product).query(Long.class).list().toArray(Long[]::new);
    String highest = "\uffff";
    String[] twoMachines = {"perf-m01", "perf-m02"};
    Map<String, List<Object>> m = new LinkedHashMap<>();
    m.put("org.perftrack.server.home.HomePages#PRODUCTS", List.of());
    m.put("org.perftrack.server.home.HomePages#MACHINES", List.of());
    m.put("org.perftrack.server.runs.RunQueries#LATEST", List.of(20));
    m.put("org.perftrack.server.products.ProductQueries#RECENT_VERSIONS", List.of(product, 40));
    m.put("org.perftrack.server.products.ProductQueries#SERIES", List.of(product));
    // one page of the product's benchmarks: 10 benchmarks × 20 machines with a sparkline (time-per-op, 40 versions)
    // and their secondary metric's latest value
    List<Object[]> pageSeries = jdbc.sql("SELECT id, metric FROM series WHERE product_id = ? AND benchmark IN "
        + "(SELECT DISTINCT benchmark FROM series WHERE product_id = ? ORDER BY 1 LIMIT 10) ORDER BY id")
        .params(product, product).query((rs, i) -> new Object[] {rs.getLong(1), rs.getString(2)}).list();
    Long[] trendIds = pageSeries.stream().map(r -> (Long) r[0]).toArray(Long[]::new);
    Integer[] trendLimits = pageSeries.stream().map(r -> "time-per-op".equals(r[1]) ? 40 : 1).toArray(Integer[]::new);
    m.put("org.perftrack.server.detection.PointReads#TRENDS", List.of(trendIds, trendLimits, windowStart));
    m.put("org.perftrack.server.pages.DataCache#STAMP", List.of());
    m.put("org.perftrack.server.detection.Regressions#MARKED", List.of((Object) chart));
    m.put("org.perftrack.server.series.SeriesChart#SERIES", List.of(SeedDatabase.PRODUCT, "write-64b", "time-per-op"));
    // the series page's table (one page of versions) and the chart's JSON (whole history in buckets)
    m.put("org.perftrack.server.detection.PointReads#NEWEST_KEYS", List.of(chart, highest, 51, 51));
    m.put("org.perftrack.server.series.SeriesQueries#POINTS_AT", List.of(page, chart));
    // at most 201 versions of the axis: more, and the chart is cut into blocks (ChartBlocks), whose kept summaries the
    // chart read once already (main, before this): the finest level's boundaries (the one that has too many, then
    // the one used), the kept summaries, and the open newest block from the points
    m.put("org.perftrack.server.detection.PointReads#AXIS", List.of(product, "", highest, chart, 201));
    int level = jdbc.sql("SELECT coalesce(min(level), 0) FROM (SELECT level FROM chart_boundary WHERE product_id = ? "
        + "GROUP BY level HAVING count(*) < 200) AS l").param(product).query(Integer.class).single();
    m.put("org.perftrack.server.series.ChartBlocks#BOUNDARIES", List.of(product, Math.max(0, level - 1), "", highest,
        200));
    List<String> starts = jdbc.sql("SELECT sort_key FROM chart_boundary WHERE product_id = ? AND level = ? "
        + "ORDER BY sort_key").params(product, level).query(String.class).list();
    String newest = starts.isEmpty() ? "" : starts.get(starts.size() - 1);
    m.put("org.perftrack.server.series.ChartBlocks#KEPT", List.of(chart, level, "", newest));
    String[] tails = new String[chart.length];
    String[] ends = new String[chart.length];
    java.util.Arrays.fill(tails, newest);
    java.util.Arrays.fill(ends, highest);
    m.put("org.perftrack.server.detection.PointReads#SPANS", List.of(chart, tails, ends));
    // the buckets' labels: the names of their first and last versions, by sort key
    String[] labelKeys = starts.stream().limit(230).toArray(String[]::new);
    m.put("org.perftrack.server.series.ChartPoints#NAMES_BY_KEY", List.of(labelKeys, product));
    List<String> axis = jdbc.sql("SELECT sort_key FROM version WHERE product_id = ? ORDER BY sort_key").param(product)
        .query(String.class).list();
    // the regression page's chart: 12 versions each side of a step, for one series
    String stepFrom = axis.get(axis.size() / 2);
    String stepTo = axis.get(axis.size() / 2 + 1);
    m.put("org.perftrack.server.detection.PointReads#AROUND", List.of(new Long[] {chart[0]}, stepFrom, 12, stepFrom,
        stepTo, 200, stepTo, 12));
    m.put("org.perftrack.server.compare.CompareTable#BENCHMARKS", List.of(SeedDatabase.PRODUCT, twoMachines, "", 501));
    m.put("org.perftrack.server.compare.CompareTable#SPREADS", java.util.Arrays.asList(SeedDatabase.PRODUCT, "1.7.14-1",
        "1.7.15-1", twoMachines, null, null));
    m.put("org.perftrack.server.pages.Catalog#MACHINES_WITH_BOTH", List.of(SeedDatabase.PRODUCT, "1.7.14-1",
        SeedDatabase.PRODUCT, "1.7.15-1"));
    m.put("org.perftrack.server.detection.CompareService#RESULTS", java.util.Arrays.asList("1.7.14-1", "1.7.15-1",
        SeedDatabase.PRODUCT, twoMachines, null, null));
    m.put("org.perftrack.server.runs.RunQueries#RESULTS", List.of(run, run));
    m.put("org.perftrack.server.machines.MachineQueries#MEASURED", java.util.Arrays.asList(machine, highest, machine, 51,
        machine, null));
    // the home page's open summaries (summaries package): machines that measured a summary's version
    long head = jdbc.sql("SELECT id FROM version WHERE product_id = ? ORDER BY sort_key DESC LIMIT 1").param(product)
        .query(Long.class).single();
    m.put("org.perftrack.server.summaries.SummaryStore#MEASURED", List.of(head, product, product,
        new String[] {"1.7.14-1"}));
    // the REST API's series (a contract: every point), for comparison
    m.put("org.perftrack.server.series.SeriesQueries#POINTS", List.of(series));
    m.put("org.perftrack.server.detection.PointReads#NEWEST_RESULTS", List.of(series, 50, series));
    return m;
  }

  static String sql(String className, String field) throws ReflectiveOperationException {
    Field f = Class.forName(className).getDeclaredField(field);
    f.setAccessible(true);
    return (String) f.get(null);
  }
}
