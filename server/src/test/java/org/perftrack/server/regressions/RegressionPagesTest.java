package org.perftrack.server.regressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.Quantities;
import org.perftrack.wire.RunUpload;

class RegressionPagesTest extends IntegrationTest {

  private String product;
  private String machine;
  private long id;

  @BeforeEach
  void uploadAStep() {
    product = unique("cygwin");
    machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    var list = http().get("/api/v1/regressions?product=" + product).json();
    id = list.valueStream().filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst()
        .orElseThrow(() -> new AssertionError("detection flags the step in time-per-op: " + list)).get("id").asLong();
  }

  @Test
  void theListShowsTheStepAndFiltersByMachineBenchmarkAndSize() {
    String all = http().page("/regressions?product=" + product).body();
    String otherMachine = http().page("/regressions?product=" + product + "&machine=" + unique("none")).body();
    String otherBenchmark = http().page("/regressions?product=" + product + "&benchmark=fork").body();
    String tooSmall = http().page("/regressions?product=" + product + "&size=3").body();

    assertThat(all).contains("href=\"/regressions/" + id + "\"", "write-64b", "1.5.24-2", "slower");
    assertThat(all).as("the size filter's options write percentages as the pages do")
        .contains(">≥ 5% worse</option>", ">≥ 10% worse</option>", ">≥ 25% worse</option>").doesNotContain(" % worse");
    assertThat(otherMachine).doesNotContain("href=\"/regressions/" + id + "\"");
    assertThat(otherBenchmark).doesNotContain("href=\"/regressions/" + id + "\"");
    assertThat(tooSmall).doesNotContain("href=\"/regressions/" + id + "\"");
  }

  @Test
  void theRegressionPageShowsStatisticsSamplesHintsAndWhatDifferedBetweenTheRuns() {
    String page = http().page("/regressions/" + id).body();
    // the hint's factor as the page words it (about ×400: the fixture's context switches, each side a little wiggled)
    double contextSwitches = http().get("/api/v1/regressions/" + id).json().get("hints").valueStream()
        .filter(h -> h.get("metric").asString().equals("ctx-switches-per-op")).findFirst().orElseThrow()
        .get("ratio").asDouble();
    assertThat(contextSwitches).isBetween(390.0, 410.0);

    assertThat(page).contains("1.5.19-4", "1.5.24-2", "ctx-switches-per-op", Quantities.ratio(contextSwitches),
            "Samples side by side")
        .contains("NOD32 2.5", "NOD32 2.7", "differs", "data-chart=");
    assertThat(page).contains("Sign in</a> to acknowledge");
    assertThat(http().page("/regressions/999999999").status()).isEqualTo(404);
  }

  @Test
  void theHomePageListsItsSummaryAsOneRow() {
    long summary = http().get("/api/v1/regressions/" + id).json().get("summaryId").asLong();

    assertThat(http().page("/").body()).contains("href=\"/summaries/" + summary + "\"")
        .as("in its summary, not as a row of its own").doesNotContain("href=\"/regressions/" + id + "\"");
  }

  @Test
  void triageNeedsASignedInUserAndRecordsWhoDidIt() throws Exception {
    HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    String csrf = csrf(browser, "/login");
    HttpResponse<String> anonymous = post(browser, "/regressions/" + id + "/triage", "status=acknowledged", csrf);
    assertThat(anonymous.statusCode()).isEqualTo(302);
    assertThat(anonymous.headers().firstValue("Location").orElse("")).endsWith("/login");

    post(browser, "/login", "username=admin&password=" + enc(ADMIN_PASSWORD), csrf(browser, "/login"));
    HttpResponse<String> withdrawn = post(browser, "/regressions/" + id + "/triage", "status=withdrawn",
        csrf(browser, "/regressions/" + id));
    assertThat(withdrawn.statusCode()).as("only detection withdraws; a person cannot").isEqualTo(400);
    assertThat(withdrawn.body()).doesNotContain("at org.");
    HttpResponse<String> done = post(browser, "/regressions/" + id + "/triage",
        "status=wontfix&note=" + enc("<b>expected</b>: new antivirus"), csrf(browser, "/regressions/" + id));

    assertThat(done.statusCode()).isEqualTo(302);
    var api = http().get("/api/v1/regressions?product=" + product + "&status=wontfix").json();
    assertThat(api.get(0).get("status").asString()).isEqualTo("wontfix");
    String page = http().page("/regressions/" + id).body();
    assertThat(page).contains("status-wontfix", "by admin", "&lt;b&gt;expected&lt;/b&gt;: new antivirus");
  }

  private String csrf(HttpClient browser, String path) throws Exception {
    String page = browser.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(m.find()).as("a CSRF token on " + path).isTrue();
    return m.group(1);
  }

  private HttpResponse<String> post(HttpClient browser, String path, String form, String csrf) throws Exception {
    return browser.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form + "&_csrf=" + enc(csrf))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String base() {
    return "http://localhost:" + port;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
