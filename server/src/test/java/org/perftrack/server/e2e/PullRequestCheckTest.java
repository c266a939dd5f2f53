package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A pull request checked against main as a CI job does it: main's Google Benchmark files are uploaded build by
 * build (one of them a regression of main's own), then the pull request's build, slower in another benchmark, is
 * sent by the agent with {@code --branch --start-point --fail-on-regression}. The agent exits 3 naming the
 * slowdown, and every row the default branch shows (versions, runs, points, chart blocks, regressions and their
 * history, summaries, mails queued) and its API answers are byte for byte what they were before.
 */
class PullRequestCheckTest extends IntegrationTest {

  private static final String SMALL = GbenchBuilds.SMALL;
  private static final String LARGE = GbenchBuilds.LARGE;

  @TempDir
  Path home;

  private final GbenchBuilds builds = new GbenchBuilds(42);
  private final String product = unique("mylib");
  private final String machine = unique("ci-runner");

  @Test
  void aSlowerPullRequestFailsItsCheckAndLeavesMainByteForByteAsItWas() throws Exception {
    for (String version : List.of("1.0.0", "1.0.1", "1.0.2", "1.0.3")) {
      upload(version, build(1.0, 1.0));
    }
    assertThat(upload("1.1.0", build(3.0, 1.0)).get("regressions")).as("main's own regression").isNotEmpty();
    upload("1.1.1", build(3.0, 1.0));
    String before = mainAsItIs();
    Path file = Files.write(home.resolve("pr.json"), build(3.0, 3.0));

    AgentProcess.Result check = AgentProcess.run(home, "upload", "--server", "http://localhost:" + port,
        "--token", TOKEN, "--spool", home.resolve("spool").toString(), "--format", "gbench", "--product", product,
        "--version", "1.1.1+pr-42.3", "--machine", machine, "--branch", "pr-42", "--start-point", "1.1.1",
        "--fail-on-regression", "--report", home.resolve("perf.md").toString(), "--junit",
        home.resolve("perf.xml").toString(), file.toString());

    assertThat(check.exitCode()).as(check.out()).isEqualTo(3);
    assertThat(check.out()).contains("REGRESSION " + LARGE).doesNotContain("REGRESSION " + SMALL);
    String comment = Files.readString(home.resolve("perf.md"));
    assertThat(comment).startsWith("### perftrack: 2 regressions").contains("(branch `pr-42`, against `1.1.1`)")
        .containsPattern(java.util.regex.Pattern.quote(PUBLIC_URL) + "/runs/[0-9a-f-]{36}\\)");
    assertThat(comment.substring(0, comment.indexOf("<details>"))).contains("| `" + LARGE + "` | `real-time` | `1.1.1`: ")
        .doesNotContain(SMALL);
    String junit = Files.readString(home.resolve("perf.xml"));
    assertThat(junit).contains("<testsuites name=\"perftrack\" tests=\"4\" failures=\"2\"");
    assertThat(junit.split("<failure ")).hasSize(3);
    assertThat(junit).contains("<testcase classname=\"" + LARGE + "\" name=\"real-time\" time=\"0\">\n"
        + "      <failure type=\"regression\"");
    assertThat(mainAsItIs()).isEqualTo(before);

    // the pages the report links to and the branch page leads to: the build's run page and API, the comparison
    java.util.regex.Matcher link = java.util.regex.Pattern.compile("/runs/([0-9a-f-]{36})\\)").matcher(comment);
    assertThat(link.find()).isTrue();
    String runId = link.group(1);
    JsonNode run = http().getWithToken("/api/v1/runs/" + runId, TOKEN).json();
    assertThat(run.get("branch").asString()).isEqualTo("pr-42");
    assertThat(run.get("startPoint").asString()).isEqualTo("1.1.1");
    assertThat(run.get("version").asString()).isEqualTo("1.1.1+pr-42.3");
    assertThat(run.get("results").findValuesAsString("benchmark")).contains(LARGE, SMALL);
    String runPage = text(http().page("/runs/" + runId).body());
    assertThat(runPage).contains("A build of branch pr-42, judged against the default branch up to its start point 1.1.1",
        "Compare with 1.1.1", "regression");
    String branchPage = http().page("/products/" + product + "/branches/pr-42").body();
    assertThat(branchPage).contains("href=\"/runs/" + runId + "\"");
    String compare = text(http().page("/compare?product=" + product + "&base=1.1.1&head=1.1.1%2Bpr-42.3"
        + "&headBranch=pr-42&machine=" + machine).body());
    assertThat(compare).contains("1.1.1 → 1.1.1+pr-42.3 (branch pr-42)").doesNotContain("0 regressions");
    assertThat(mainAsItIs()).as("reading the branch changes nothing of main").isEqualTo(before);
    JsonNode verdicts = jdbcJson("""
        SELECT coalesce(jsonb_agg(jsonb_build_object('benchmark', br.benchmark, 'verdict', br.verdict,
                 'baseline', br.baseline_version, 'ratio', br.ratio) ORDER BY br.benchmark, br.metric), '[]')::text
        FROM branch_result br JOIN branch_run ru ON ru.id = br.run_id JOIN branch b ON b.id = ru.branch_id
        JOIN product p ON p.id = b.product_id WHERE p.name = ? AND b.name = 'pr-42'""");
    JsonNode large = verdicts.valueStream().filter(v -> v.get("benchmark").asString().equals(LARGE)).findFirst()
        .orElseThrow();
    assertThat(large.get("verdict").asString()).isEqualTo("regression");
    assertThat(large.get("baseline").asString()).isEqualTo("1.1.1");
    assertThat(large.get("ratio").asDouble()).isCloseTo(3.0, within(0.3));
    assertThat(verdicts.valueStream().filter(v -> v.get("benchmark").asString().equals(SMALL))
        .map(v -> v.get("verdict").asString())).containsOnly("unchanged");
  }

  /** A page's text as a reader sees it, roughly: tags dropped, white space folded. */
  private static String text(String html) {
    return html.replaceAll("(?s)<script.*?</script>", " ").replaceAll("<[^>]+>", " ").replace("&gt;", ">")
        .replace("&lt;", "<").replace("&amp;", "&").replace("&#39;", "'").replace("&quot;", "\"")
        .replaceAll("\\s+", " ").replace(" ,", ",").replace(" .", ".").replace("( ", "(").replace(" )", ")");
  }

  @Test
  void aBranchIsJudgedAgainstMainUpToItsStartPointNotAgainstMainsLaterBuilds() {
    for (String version : List.of("2.0.0", "2.0.1", "2.0.2", "2.0.3")) {
      upload(version, build(1.0, 1.0));
    }
    upload("2.1.0", build(3.0, 1.0));
    upload("2.1.1", build(3.0, 1.0));

    JsonNode fromOld = branch("2.0.3+old", "old-base", "2.0.3", build(3.0, 1.0));
    JsonNode fromNew = branch("2.1.1+new", "new-base", null, build(3.0, 1.0));

    assertThat(fromOld.get("startPoint").asString()).isEqualTo("2.0.3");
    assertThat(fromOld.get("regressions").findValuesAsString("benchmark")).contains(SMALL).doesNotContain(LARGE);
    assertThat(fromNew.get("startPoint").asString()).as("the newest default version on the machine").isEqualTo("2.1.1");
    assertThat(fromNew.get("regressions")).isEmpty();
  }

  @Test
  void aBranchRunNeedsADefaultBranchHistoryAndAStartPointThatExists() {
    Http.Response unknownMachine = http().postBytes("/api/v1/runs?format=gbench&product=" + product
        + "&version=1.0.0&machine=" + unique("new-runner") + "&branch=pr-1", build(1.0, 1.0), "application/json", TOKEN);
    upload("1.0.0", build(1.0, 1.0));
    Http.Response unknownStart = http().postBytes("/api/v1/runs?format=gbench&product=" + product
        + "&version=1.0.0&machine=" + machine + "&branch=pr-1&startPoint=0.9", build(1.0, 1.0), "application/json",
        TOKEN);

    assertThat(unknownMachine.status()).isEqualTo(400);
    assertThat(unknownMachine.body()).contains("startPoint");
    assertThat(unknownStart.status()).isEqualTo(400);
    assertThat(unknownStart.body()).contains("startPoint", "0.9");
    assertThat(jdbc.sql("SELECT count(*) FROM branch b JOIN product p ON p.id = b.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).as("nothing half-stored").isZero();
  }

  private JsonNode branch(String version, String branch, String startPoint, byte[] file) {
    Http.Response r = http().postBytes("/api/v1/runs?format=gbench&product=" + product + "&version=" + version
        + "&machine=" + machine + "&branch=" + branch + (startPoint == null ? "" : "&startPoint=" + startPoint), file,
        "application/json", TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  /**
   * Everything of this product the default branch keeps and shows: its rows, one JSON text per row in a fixed
   * order, and the API's answers for it.
   */
  private String mainAsItIs() {
    List<String> parts = new ArrayList<>();
    String series = "(SELECT s.id FROM series s JOIN product p ON p.id = s.product_id WHERE p.name = :product)";
    String regressions = "(SELECT id FROM regression WHERE series_id IN " + series + ")";
    for (String query : List.of(
        "SELECT to_jsonb(x)::text FROM product x WHERE x.name = :product",
        "SELECT to_jsonb(x)::text FROM version x WHERE x.product_id = (SELECT id FROM product WHERE name = :product)",
        "SELECT to_jsonb(x)::text FROM chart_boundary x WHERE x.product_id = (SELECT id FROM product WHERE name = :product)",
        "SELECT to_jsonb(x)::text FROM run x WHERE x.product_id = (SELECT id FROM product WHERE name = :product)",
        "SELECT to_jsonb(x)::text FROM series x WHERE x.id IN " + series,
        "SELECT to_jsonb(x)::text FROM result x WHERE x.series_id IN " + series,
        "SELECT to_jsonb(x)::text FROM detection_point x WHERE x.series_id IN " + series,
        "SELECT to_jsonb(x)::text FROM detection_stamp x WHERE x.series_id IN " + series,
        "SELECT to_jsonb(x)::text FROM chart_summary x WHERE x.series_id IN " + series,
        "SELECT to_jsonb(x)::text FROM regression x WHERE x.series_id IN " + series,
        "SELECT to_jsonb(x)::text FROM regression_event x WHERE x.regression_id IN " + regressions,
        "SELECT to_jsonb(x)::text FROM summary x WHERE x.product_id = (SELECT id FROM product WHERE name = :product)",
        "SELECT to_jsonb(x)::text FROM summary_member x WHERE x.regression_id IN " + regressions,
        "SELECT to_jsonb(x)::text FROM alert_regression x WHERE x.product = :product",
        "SELECT to_jsonb(x)::text FROM alert_outbox x WHERE x.payload::text LIKE '%' || :product || '%'")) {
      parts.addAll(jdbc.sql(query + " ORDER BY 1").param("product", product).query(String.class).list());
    }
    for (String path : List.of("/api/v1/regressions?status=all&product=" + product,
        "/api/v1/summaries?status=all&product=" + product,
        "/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark=" + SMALL + "&metric=real-time",
        "/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark=" + LARGE + "&metric=real-time",
        "/api/v1/compare?product=" + product + "&machine=" + machine + "&base=1.0.3&head=1.1.1")) {
      Http.Response r = http().getWithToken(path, TOKEN);
      assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
      parts.add(r.body());
    }
    return String.join("\n", parts);
  }

  private JsonNode jdbcJson(String query) {
    return Json.MAPPER.readTree(jdbc.sql(query).param(product).query(String.class).single());
  }

  private JsonNode upload(String version, byte[] file) {
    Http.Response r = http().postBytes("/api/v1/runs?format=gbench&product=" + product + "&version=" + version
        + "&machine=" + machine, file, "application/json", TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  private byte[] build(double small, double large) {
    return builds.build(small, large);
  }
}
