package org.perftrack.server.products;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

class ProductPagesTest extends IntegrationTest {

  @Test
  void productPageShowsEachBenchmarkWithItsLatestValuePerMachineAndASparkline() {
    String product = unique("cygwin");
    String xp = unique("xp");
    String vista = unique("vista");
    upload(run(product, "1.5.24-2", xp, result("write-64b", 48.0, 48.2, 47.9)));
    upload(run(product, "1.5.19-4", xp, result("write-64b", 18.0, 18.1, 17.9)));
    upload(run(product, "1.5.19-4", vista, result("write-64b", 21.0, 21.5, 20.5), result("fork", 75.0)));

    Http.Response page = http().page("/products/" + product);

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("write-64b", "fork", xp, vista)
        .contains("title=\"at 1.5.24-2\">48.03</td>")
        .contains("title=\"at 1.5.19-4\">21</td>")
        .contains("<polyline class=\"c0\"")
        .contains("name=\"base\"");
  }

  @Test
  void productPageShowsANewUploadAtOnceDespiteItsCache() {
    String product = unique("cygwin");
    String xp = unique("xp");
    upload(run(product, "1.0", xp, result("fork", 70.0)));
    assertThat(http().page("/products/" + product).body()).contains("title=\"at 1.0\">70</td>");

    upload(run(product, "2.0", xp, result("fork", 140.0)));

    assertThat(http().page("/products/" + product).body()).contains("title=\"at 2.0\">140</td>");
  }

  @Test
  void seriesPageListsVersionsInVersionOrderAndNamesTheChartData() {
    String product = unique("cygwin");
    String xp = unique("xp");
    for (String v : List.of("1.7.7", "1.5.24-2", "1.7.10", "1.5.19-4")) {
      upload(run(product, v, xp, result("write-64b", 10.0, 11.0, 12.0)));
    }

    Http.Response page = http().page(seriesPath(product, "write-64b", null));

    assertThat(page.status()).isEqualTo(200);
    String body = page.body();
    assertThat(body.indexOf(">1.5.19-4<")).isLessThan(body.indexOf(">1.5.24-2<"));
    assertThat(body.indexOf(">1.5.24-2<")).isLessThan(body.indexOf(">1.7.7<"));
    assertThat(body.indexOf(">1.7.7<")).isLessThan(body.indexOf(">1.7.10<"));
    assertThat(body).doesNotContain("data-chart=").contains("/webjars/uplot/");
    java.util.regex.Matcher src = java.util.regex.Pattern.compile("data-chart-src=\"([^\"]+)\"").matcher(body);
    assertThat(src.find()).isTrue();
    Http.Response chart = http().get(src.group(1).replace("&amp;", "&"));
    assertThat(chart.status()).isEqualTo(200);
    assertThat(chart.json().get("versions").toString()).isEqualTo("[\"1.5.19-4\",\"1.5.24-2\",\"1.7.7\",\"1.7.10\"]");
    assertThat(chart.json().get("bucket").asInt()).isEqualTo(1);
    java.util.regex.Matcher script = java.util.regex.Pattern.compile("src=\"(/webjars/uplot/[^\"]+)\"").matcher(body);
    assertThat(script.find()).isTrue();
    assertThat(http().get(script.group(1)).status()).isEqualTo(200);
  }

  @Test
  void aHostileBenchmarkNameIsShownAsTextOnEveryPage() {
    String product = unique("cygwin");
    String hostile = "<script>alert(1)</script>";
    RunUpload run = run(product, "1.0", unique("xp"), result(hostile, 1.0, 2.0));
    upload(run);

    for (String path : List.of("/products/" + product, seriesPath(product, hostile, null), "/runs/" + run.id())) {
      String body = http().page(path).body();
      assertThat(body).as(path).doesNotContain("<script>alert(1)").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
  }

  @Test
  void theRunPageListsEachBenchmarksPrimaryMetricFirst() {
    RunUpload run = org.perftrack.server.summaries.Seed003.run(unique("cygwin"), unique("xp"), "1.5.24-2", 48, 3000);
    upload(run);

    String body = http().page("/runs/" + run.id()).body();

    assertThat(body.indexOf(">time-per-op<")).isPositive().isLessThan(body.indexOf(">ctx-switches-per-op<"));
  }

  @Test
  void unknownProductsAndSeriesArePagesSaying404() {
    Http.Response product = http().page("/products/" + unique("nothing"));
    Http.Response series = http().page(seriesPath(unique("nothing"), "write-64b", null));

    assertThat(product.status()).isEqualTo(404);
    assertThat(product.contentType()).startsWith("text/html");
    assertThat(product.body()).contains("Not found").doesNotContain("Exception");
    assertThat(series.status()).isEqualTo(404);
  }

  @Test
  void seriesPageCanShowOneMachine() {
    String product = unique("cygwin");
    String xp = unique("xp");
    String vista = unique("vista");
    upload(run(product, "1.0", xp, result("fork", 70.0)));
    upload(run(product, "1.0", vista, result("fork", 90.0)));

    String body = http().page(seriesPath(product, "fork", vista)).body();
    String chart = http().get("/products/" + product + "/series/chart?benchmark=fork&metric=time-per-op&machine="
        + vista).body();

    assertThat(body).contains("machine=" + vista);
    assertThat(chart).contains("\"name\":\"" + vista).doesNotContain("\"name\":\"" + xp);
  }

  @Test
  void withManyMachinesTheSeriesTableSummarisesAcrossMachinesAndTheProductPageDrawsABand() {
    String product = unique("cygwin");
    for (int m = 1; m <= 7; m++) {
      upload(run(product, "1.0", unique("m" + m), result("fork", 10.0 * m)));
    }

    String series = http().page(seriesPath(product, "fork", null)).body();
    String overview = http().page("/products/" + product).body();

    assertThat(series).contains("Values across machines").contains(">10<", ">40<", ">70<");
    assertThat(overview).contains("<polygon class=\"band\"").doesNotContain("<polyline class=\"c0\"");
  }

  @Test
  void theBenchmarkListIsPagedAndFilteredOnTheServer() {
    String product = unique("cygwin");
    String xp = unique("xp");
    List<ResultUpload> results = new ArrayList<>();
    for (int i = 0; i < ProductPage.PAGE_SERIES + 5; i++) {
      results.add(result(String.format("b%03d", i), 10.0 + i));
    }
    // a secondary metric rides on its benchmark's row, with its latest value only
    results.add(new ResultUpload("b201", "ctx-switches-per-op", "count", RunUpload.LOWER_IS_BETTER, List.of(7.0)));
    upload(run(product, "1.0", xp, results.toArray(ResultUpload[]::new)));

    String first = http().page("/products/" + product).body();
    String second = http().page("/products/" + product + "?after=b199").body();
    String filtered = http().page("/products/" + product + "?filter=b20").body();

    assertThat(first).contains(">b000<", ">b199<", "title=\"at 1.0\">209</td>").doesNotContain(">b200<")
        .contains("rel=\"next\"", "after=b199", "benchmarks after b199", "205 benchmarks");
    assertThat(second).contains(">b200<", ">b204<", "title=\"at 1.0\">211</td>", xp + ": 7", "first benchmarks")
        .doesNotContain(">b199<", "rel=\"next\"");
    assertThat(filtered).contains(">b200<", ">b204<", "5 benchmarks matching").doesNotContain(">b000<", ">b199<")
        .contains("value=\"b20\"");
    assertThat(http().page("/products/" + product + "?after=zzz").body()).doesNotContain(">b000<", ">b204<");
  }

  static String seriesPath(String product, String benchmark, String machine) {
    return "/products/" + product + "/series?benchmark=" + URLEncoder.encode(benchmark, StandardCharsets.UTF_8)
        + "&metric=time-per-op" + (machine == null ? "" : "&machine=" + machine);
  }

  private void upload(RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }
}
