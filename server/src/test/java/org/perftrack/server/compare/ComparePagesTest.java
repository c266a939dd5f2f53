package org.perftrack.server.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

class ComparePagesTest extends IntegrationTest {

  private static final String HOSTILE = "<script>alert(1)</script>";
  private String product;
  private String machine;

  @BeforeEach
  void uploadAStep() {
    product = unique("cygwin");
    machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, HOSTILE)) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
  }

  @Test
  void comparePageShowsTheVerdictsWithSecondaryMetricsBesideThePrimary() {
    Http.Response r = http().page("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2&machine=" + machine);

    assertThat(r.status()).isEqualTo(200);
    String body = r.body();
    assertThat(body).contains("class=\"badge regression\">regression", "class=\"badge unchanged\">unchanged")
        .contains("×2.65", "ctx-switches-per-op", "Download CSV")
        .contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert(1)");
  }

  @Test
  void aMetricWithAZeroSampleGetsAVerdictNotNotEnoughData() {
    String zeros = unique("zeros");
    assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(zeros, "1.0", machine,
        org.perftrack.server.support.Fixtures.result("faults", 0, 10, 11, 9, 12))), TOKEN).status()).isEqualTo(201);
    assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(zeros, "2.0", machine,
        org.perftrack.server.support.Fixtures.result("faults", 180, 175, 190, 185, 178))), TOKEN).status())
        .isEqualTo(201);

    String body = http().page("/compare?product=" + zeros + "&base=1.0&head=2.0&machine=" + machine).body();

    assertThat(body).as("×18 with one sample of 0").contains("class=\"badge regression\">regression")
        .doesNotContain("class=\"badge insufficient-data\">not enough data");
  }

  @Test
  void overAllMachinesEachMetricIsOneRowCountingTheMachinesVerdicts() {
    String second = unique("win7");
    for (RunUpload run : StepFixtures.history(product, second, HOSTILE)) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }

    String body = http().page("/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2").body();

    assertThat(body).contains("on 2 machines", "2 regressions", "2 unchanged", "Middle change");
    // write-64b time-per-op and fork time-per-op; context switches ride beside write-64b, not in a row
    assertThat(body.split("<tr class=\"verdict-")).hasSize(3);
  }

  @Test
  void overAllMachinesABenchmarksOtherMetricsReadBesideItAsOnOneMachine() {
    String second = unique("win7");
    StepFixtures.history(product, second, HOSTILE).forEach(this::upload);
    String pair = "/compare?product=" + product + "&base=1.5.19-4&head=1.5.24-2";

    String oneMachine = row(http().page(pair + "&machine=" + machine).body(), "time-per-op");
    String allMachines = row(http().page(pair).body(), "time-per-op");

    assertThat(oneMachine).as("on one machine").containsPattern("ctx-switches-per-op ×\\d+ regression");
    assertThat(allMachines).as("over all machines, the same benchmark's row")
        .containsPattern("ctx-switches-per-op ×\\d+ regression");
  }

  @Test
  void overAllMachinesAnOtherMetricSaysOnHowManyMachinesItWasMeasuredAndAnUnsureOneIsInconclusive() {
    String tools = unique("tools");
    java.util.List<String> machines = java.util.List.of(unique("m"), unique("m"), unique("m"), unique("m"));
    for (int i = 0; i < machines.size(); i++) {
      boolean counted = i < 2; // context switches only where the platform gives them
      for (String version : java.util.List.of("1.0", "2.0")) {
        boolean head = version.equals("2.0");
        java.util.List<RunUpload.ResultUpload> results = new java.util.ArrayList<>(java.util.List.of(
            new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
                java.util.List.of(18.0, 18.1, 17.9, 18.05, 17.95)),
            new RunUpload.ResultUpload("write-64b", "user-cpu-per-op", "us", RunUpload.LOWER_IS_BETTER, head
                ? java.util.List.of(30.0, 14.0, 50.0, 16.0, 45.0) : java.util.List.of(10.0, 40.0, 12.0, 38.0, 20.0))));
        if (counted) {
          double level = head ? 400 : 1;
          results.add(new RunUpload.ResultUpload("write-64b", "ctx-switches-per-op", "count",
              RunUpload.LOWER_IS_BETTER, java.util.List.of(level, level * 1.01, level * 0.99, level * 1.005, level)));
        }
        upload(org.perftrack.server.support.Fixtures.run(tools, version, machines.get(i),
            results.toArray(RunUpload.ResultUpload[]::new)));
      }
    }
    String pair = "/compare?product=" + tools + "&base=1.0&head=2.0";

    String oneMachine = http().page(pair + "&machine=" + machines.get(0)).text();
    String allMachines = http().page(pair).text();

    assertThat(oneMachine).as("one machine says so").contains("user-cpu-per-op ×1.3 inconclusive")
        .contains("ctx-switches-per-op ×400 regression").doesNotContain(" of 4 machines");
    assertThat(allMachines).contains("ctx-switches-per-op ×400 regression on 2 of 4 machines")
        .contains("user-cpu-per-op ×1.3 inconclusive").doesNotContain("user-cpu-per-op ×1.3 unchanged")
        .doesNotContain("inconclusive on 4 of 4");
  }

  /** The visible text of the page's first table row whose text has the hostile benchmark and {@code metric}. */
  private static String row(String body, String metric) {
    return java.util.Arrays.stream(body.split("<tr class=\"verdict-")).skip(1)
        .map(r -> org.springframework.web.util.HtmlUtils.htmlUnescape(r.replaceAll("<[^>]+>", " "))
            .replaceAll("\\s+", " "))
        .filter(t -> t.contains(HOSTILE) && t.contains(metric)).findFirst().orElseThrow();
  }

  @Test
  void overAllMachinesARangeWhoseEndsBothChangeFromZeroSaysFromZeroOnce() {
    String zeros = unique("zeros");
    for (String m : java.util.List.of(machine, unique("win7"))) {
      assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(zeros, "1.0", m,
          org.perftrack.server.support.Fixtures.result("faults", 0, 0, 0, 0, 0))), TOKEN).status()).isEqualTo(201);
      assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(zeros, "2.0", m,
          org.perftrack.server.support.Fixtures.result("faults", 3, 3, 4, 3, 2))), TOKEN).status()).isEqualTo(201);
    }

    String text = http().page("/compare?product=" + zeros + "&base=1.0&head=2.0").text();

    assertThat(text).as("Range 'from 0', Machines 2").contains("2 regressions from 0 2 One row per metric")
        .doesNotContain("from 0 – from 0", "∞", "Infinity");
  }

  @Test
  void aChangeFromZeroHasNoRatioAndItsRowSaysWhyInTheJsonTheCsvAndTheOpenApiDocument() {
    String zeros = unique("zeros");
    upload(org.perftrack.server.support.Fixtures.run(zeros, "1.0", machine,
        org.perftrack.server.support.Fixtures.result("faults", 0, 0, 0, 0, 0),
        org.perftrack.server.support.Fixtures.result("write-64b", 18, 18.2, 17.9, 18.1, 18)));
    upload(org.perftrack.server.support.Fixtures.run(zeros, "2.0", machine,
        org.perftrack.server.support.Fixtures.result("faults", 3, 3, 4, 3, 2),
        org.perftrack.server.support.Fixtures.result("write-64b", 18.1, 18, 18.2, 17.9, 18.1)));
    String pair = "?product=" + zeros + "&base=1.0&head=2.0&machine=" + machine;

    java.util.Map<String, tools.jackson.databind.JsonNode> rows = new java.util.HashMap<>();
    http().get("/api/v1/compare" + pair).json().get("rows").forEach(r -> rows.put(r.get("benchmark").asString(), r));
    assertThat(rows.get("faults").get("ratio").isNull()).isTrue();
    assertThat(rows.get("faults").get("fromZero").asBoolean()).as("why the ratio is null").isTrue();
    assertThat(rows.get("faults").get("verdict").asString()).isEqualTo("regression");
    assertThat(rows.get("write-64b").get("ratio").isNumber()).isTrue();
    assertThat(rows.get("write-64b").get("fromZero").asBoolean()).isFalse();

    String[] csv = http().get("/compare.csv" + pair).body().split("\r\n");
    assertThat(csv[0]).as("the header, columns added at the end").startsWith("machine,benchmark,metric,")
        .endsWith(",first_suspect,last_suspect,most_likely,from_zero");
    assertThat(java.util.Arrays.stream(csv).filter(l -> l.contains(",faults,")).findFirst().orElseThrow())
        .contains(",0.00000,").contains(",,").endsWith(",true");
    assertThat(java.util.Arrays.stream(csv).filter(l -> l.contains(",write-64b,")).findFirst().orElseThrow())
        .endsWith(",false");

    tools.jackson.databind.JsonNode row = http().get("/v3/api-docs").json().get("components").get("schemas")
        .get("ComparedMetric").get("properties");
    assertThat(row.get("ratio").get("type").toString()).as("a number or null").contains("\"number\"", "\"null\"");
    assertThat(row.get("ratio").get("description").asString()).contains("null when the base is 0", "fromZero");
    assertThat(row.get("fromZero").get("description").asString()).contains("base is 0");
  }

  private void upload(RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }

  @Test
  void allMachinesIsTheDefaultAndTheLatestTwoVersionsAreChosenWhenNoneAreGiven() {
    String body = http().page("/compare?product=" + product).body();

    assertThat(body).contains("1.5.32-1", "1.5.33-1", "on 1 machine<");
  }

  @Test
  void theRegressionPagesAndHomeShowAHostileBenchmarkNameAsText() {
    long id = http().get("/api/v1/regressions?product=" + product).json().get(0).get("id").asLong();

    for (String path : java.util.List.of("/", "/regressions?product=" + product, "/regressions/" + id)) {
      assertThat(http().page(path).body()).as(path).doesNotContain("<script>alert(1)")
          .contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
  }

  @Test
  void csvHasOneLinePerMetricAndNeutralisesFormulas() {
    Http.Response r = http().get("/compare.csv?product=" + product + "&base=1.5.19-4&head=1.5.24-2");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).startsWith("text/csv");
    String[] lines = r.body().split("\r\n");
    assertThat(lines[0]).startsWith("machine,benchmark,metric");
    assertThat(lines).hasSize(4);
    assertThat(r.body()).contains(machine + ",<script>alert(1)</script>,time-per-op,us,lower_is_better,1.5.19-4,1.5.24-2");
  }

  @Test
  void anUnknownVersionIsA404NamingTheKnownVersionsNotAnotherComparison() {
    Http.Response r = http().page("/compare?product=" + product + "&base=9.9&head=1.5.24-2");

    assertThat(r.status()).isEqualTo(404);
    assertThat(r.body()).contains(product + " has no version 9.9; its versions are ", "1.5.19-4, 1.5.24-2, ")
        .doesNotContain("class=\"badge regression\">regression");
    assertThat(title(r)).as("the browser tab").isEqualTo("Compare · perftrack");
    assertThat(r.body()).as("the fields keep what was typed").contains("id=\"base\" name=\"base\"")
        .containsPattern("id=\"base\"[^>]*value=\"9.9\"").containsPattern("id=\"head\"[^>]*value=\"1.5.24-2\"");
    assertThat(http().get("/compare.csv?product=" + product + "&base=1.5.19-4&head=7.7").status()).isEqualTo(404);
  }

  @Test
  void aProductWithOneVersionGetsAHintNotAnErrorBox() {
    String lone = unique("lone");
    assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(lone, "1.0", machine,
        org.perftrack.server.support.Fixtures.result("fork", 1.0, 1.1))), TOKEN).status()).isEqualTo(201);

    Http.Response r = http().page("/compare?product=" + lone);

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).contains("class=\"card muted hint\"", "has only one version so far")
        .doesNotContain("role=\"alert\"");
    assertThat(title(r)).as("the browser tab").isEqualTo("Compare · perftrack");
  }

  @Test
  void anUnknownProductIsA404NamingItNotTheHintOfAnotherProductWithOneVersion() {
    String first = unique("0lone"); // sorts before the other products: the one the page would fall back to
    assertThat(http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(first, "1.0", machine,
        org.perftrack.server.support.Fixtures.result("fork", 1.0, 1.1))), TOKEN).status()).isEqualTo(201);

    Http.Response r = http().page("/compare?product=" + unique("gone") + "&base=1.0&head=1.1");

    assertThat(r.status()).isEqualTo(404);
    assertThat(r.body()).contains("There is no product gone").doesNotContain("has only one version so far");
    assertThat(title(r)).as("the browser tab, not the product the menu falls back to").isEqualTo("Compare · perftrack");
  }

  /** The page's title, as its browser tab shows it. */
  private static String title(Http.Response r) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<title>([^<]*)</title>").matcher(r.body());
    assertThat(m.find()).as("a title").isTrue();
    return org.springframework.web.util.HtmlUtils.htmlUnescape(m.group(1).trim());
  }
}
