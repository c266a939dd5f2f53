package org.perftrack.server.regressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The regression list pages through any number of regressions (page and API), newest first, with every filter
 * applied before a page is cut; a status it does not know is a 400 naming the field.
 */
class RegressionListPagingTest extends IntegrationTest {

  private static final Pattern ROW = Pattern.compile("href=\"/regressions/(\\d+)\"");
  private static final Pattern OLDER = Pattern.compile("href=\"([^\"]*)\"[^>]*>Older →</a>");
  private static final Pattern NEWER = Pattern.compile("href=\"([^\"]*)\"[^>]*>← Newer</a>");

  private String product;
  private List<Long> pipe;

  /**
   * A step of benchmark pipe detected a day ago, then a step of write-64b on another machine, copied 220 times as
   * acknowledged regressions detected a minute apart before it (every other copy 1.2 times slower instead of 2.7):
   * 222 regressions, pipe's the oldest.
   */
  @BeforeEach
  void manyRegressions() {
    product = unique("cygwin");
    for (RunUpload run : StepFixtures.history(product, unique("xp"), "pipe")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    pipe = ids(http().get("/api/v1/regressions?product=" + product).json()).stream().sorted().toList();
    assertThat(pipe).hasSize(1);
    jdbc.sql("UPDATE regression SET detected_at = now() - interval '1 day' - id * interval '1 second' WHERE id = ANY(?)")
        .param(pipe.toArray(Long[]::new)).update();
    for (RunUpload run : StepFixtures.history(product, unique("xp"), "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    jdbc.sql("""
        INSERT INTO regression (series_id, baseline_version_id, version_id, kind, baseline_value, value, ratio,
                                p_value, status, hints, detected_at, updated_at)
        SELECT r.series_id, r.baseline_version_id, r.version_id, r.kind, r.baseline_value, r.value,
               CASE WHEN g % 2 = 0 THEN r.ratio ELSE 1.2 END, r.p_value, 'acknowledged', r.hints, r.detected_at - g * interval '1 minute', r.updated_at
        FROM regression r JOIN series s ON s.id = r.series_id JOIN product p ON p.id = s.product_id
        CROSS JOIN generate_series(1, 220) AS g
        WHERE p.name = ? AND s.benchmark = 'write-64b'""").param(product).update();
  }

  @Test
  void thePagesOfEveryStatusShowEachRegressionOnceNewestFirstAndLinkBothWays() {
    List<Long> all = ids(http().get("/api/v1/regressions?status=all&limit=5000&product=" + product).json());
    assertThat(all).hasSize(222).endsWith(pipe.toArray(Long[]::new));
    assertThat(rows(page("/regressions?product=" + product + "&status=acknowledged"))).hasSize(100);

    String first = page("/regressions?status=all&product=" + product);
    assertThat(rows(first)).containsExactlyElementsOf(all.subList(0, 100));
    assertThat(NEWER.matcher(first).find()).as("no newer page before the first").isFalse();
    String second = page(link(OLDER, first));
    assertThat(rows(second)).containsExactlyElementsOf(all.subList(100, 200));
    String third = page(link(OLDER, second));
    assertThat(rows(third)).containsExactlyElementsOf(all.subList(200, 222));
    assertThat(OLDER.matcher(third).find()).as("no older page after the last").isFalse();
    assertThat(link(NEWER, third)).contains("status=all", "product=" + product, "after=" + all.get(200));
    assertThat(rows(page(link(NEWER, third)))).containsExactlyElementsOf(all.subList(100, 200));
    assertThat(rows(page(link(NEWER, second)))).as("back at the newest: the whole first page")
        .containsExactlyElementsOf(all.subList(0, 100));
  }

  @Test
  void filtersAreAppliedBeforeThePageIsCut() {
    String pipes = page("/regressions?status=all&benchmark=pipe&product=" + product);
    String large = page("/regressions?status=all&size=1.5&product=" + product);
    String openOnes = page("/regressions?product=" + product);

    assertThat(rows(pipes)).as("the oldest of 222, behind 221 of another benchmark").containsExactlyElementsOf(pipe);
    assertThat(rows(large)).as("the ×2.7 steps, not the ×1.2 copies").hasSize(100);
    assertThat(OLDER.matcher(large).find()).isTrue();
    assertThat(rows(page(link(OLDER, large)))).as("2 steps and 110 copies in all").hasSize(12);
    assertThat(rows(openOnes)).as("the open ones: pipe's and write-64b's (the copies are acknowledged)").hasSize(2);
  }

  @Test
  void theApiPagesWithBeforeAndALinkHeader() throws Exception {
    List<Long> all = ids(http().get("/api/v1/regressions?status=all&limit=5000&product=" + product).json());
    HttpClient client = HttpClient.newHttpClient();
    List<Long> paged = new ArrayList<>();
    String next = "http://localhost:" + port + "/api/v1/regressions?status=all&limit=100&product=" + product;
    int pages = 0;
    while (next != null) {
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(next)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      paged.addAll(ids(tools.jackson.databind.json.JsonMapper.builder().build().readTree(r.body())));
      next = r.headers().firstValue("Link").map(l -> l.substring(l.indexOf('<') + 1, l.indexOf('>'))).orElse(null);
      assertThat(++pages).isLessThanOrEqualTo(3);
    }
    assertThat(paged).containsExactlyElementsOf(all);

    var bad = http().get("/api/v1/regressions?before=x");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("fields").get(0).get("field").asString()).isEqualTo("before");
  }

  @Test
  void anUnknownStatusOrCursorIsA400PageThatNamesTheField() {
    var status = http().page("/regressions?status=closed");
    var cursor = http().page("/regressions?before=latest");
    var gone = http().page("/regressions?before=999999999999");

    assertThat(status.status()).isEqualTo(400);
    assertThat(status.body()).contains("<strong>status</strong>", "must be one of open, acknowledged", "got: closed")
        .doesNotContain("at org.");
    assertThat(cursor.status()).isEqualTo(400);
    assertThat(cursor.body()).contains("<strong>before</strong>", "must be the id of a regression");
    assertThat(gone.status()).isEqualTo(400);
    assertThat(gone.body()).contains("<strong>before</strong>", "no regression 999999999999");
  }

  @Test
  void aProductWithManyVersionsOffersItsNewestAsSuggestionsNotAListOfEveryVersion() {
    String many = unique("many");
    String lines = java.util.stream.IntStream.range(0, 130).mapToObj(i -> json(org.perftrack.server.support.Fixtures
        .run(many, "7." + i, "box-" + many, org.perftrack.server.support.Fixtures.result("fork", 1, 1, 1))))
        .collect(java.util.stream.Collectors.joining("\n"));
    assertThat(http().postBytes("/api/v1/runs:import", lines.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "application/x-ndjson", TOKEN).status()).isEqualTo(200);

    String manyPage = page("/regressions?product=" + many + "&version=7.3");
    String fewPage = page("/regressions?product=" + product);

    assertThat(manyPage).contains("<input id=\"f-version\" name=\"version\" value=\"7.3\"", "<option value=\"7.129\">",
        "<option value=\"7.30\">").doesNotContain("<option value=\"7.29\">", "<select id=\"f-version\"");
    assertThat(fewPage).contains("<select id=\"f-version\"", ">1.5.10-1</option>", ">1.5.33-1</option>");
  }

  private String page(String path) {
    var r = http().page(path);
    assertThat(r.status()).as(path).isEqualTo(200);
    return r.body();
  }

  private static String link(Pattern which, String page) {
    Matcher m = which.matcher(page);
    assertThat(m.find()).as("a link " + which).isTrue();
    return m.group(1).replace("&amp;", "&");
  }

  private static List<Long> rows(String page) {
    List<Long> ids = new ArrayList<>();
    Matcher m = ROW.matcher(page);
    while (m.find()) {
      ids.add(Long.parseLong(m.group(1)));
    }
    return ids;
  }

  private static List<Long> ids(JsonNode list) {
    return list.valueStream().map(r -> r.get("id").asLong()).toList();
  }
}
