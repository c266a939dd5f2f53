package org.perftrack.server.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A product's branches: listed by the API and on the product page, each build with its verdicts on the branch
 * page, compared with any default version, deleted by an admin (softly, with undo) and pruned once old; seed 003's write() of 64 bytes
 * (18 → 48 µs) is the pull request's slowdown.
 */
class BranchesTest extends IntegrationTest {

  @Autowired
  Branches branches;

  private final String product = unique("cygwin");
  private final String machine = unique("xp-lab");

  @BeforeEach
  void mainHistory() {
    for (String version : List.of("1.5.19-1", "1.5.19-2", "1.5.19-3", "1.5.19-4")) {
      upload(run(product, version, machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0),
          result("fork", 75.0, 75.2, 74.9, 75.1, 75.0)));
    }
  }

  @Test
  void aBranchIsListedWithItsBuildsAndTheirVerdictsOnTheApiTheBranchPageAndTheProductPage() {
    upload(slow("1.5.19-4+pr9.1").onBranch("pr-9", null));
    upload(same("1.5.19-4+pr9.2").onBranch("pr-9", "1.5.19-4"));
    upload(slow("1.5.19-4+fast").onBranch("feature/fast-copy", null));

    JsonNode list = get("/api/v1/branches?product=" + product);
    JsonNode pr = get("/api/v1/branches/pr-9?product=" + product);
    JsonNode feature = get("/api/v1/branches/feature/fast-copy?product=" + product);
    String page = http().page("/products/" + product + "/branches/pr-9").body();
    String productPage = http().page("/products/" + product).body();

    assertThat(list.findValuesAsString("name")).containsExactly("feature/fast-copy", "pr-9");
    assertThat(list.get(1).get("runs").asLong()).isEqualTo(2);
    assertThat(list.get(1).get("latestRegressions").asLong()).as("its newest build is as fast as main").isZero();
    JsonNode builds = pr.get("builds");
    assertThat(builds.findValuesAsString("version")).containsExactly("1.5.19-4+pr9.2", "1.5.19-4+pr9.1");
    JsonNode slowBuild = builds.get(1).get("results").get(0);
    assertThat(slowBuild.get("benchmark").asString()).isEqualTo("write-64b");
    assertThat(slowBuild.get("verdict").asString()).isEqualTo("regression");
    assertThat(slowBuild.get("baselineVersion").asString()).isEqualTo("1.5.19-4");
    assertThat(builds.get(0).get("results").findValuesAsString("verdict")).containsOnly("unchanged");
    assertThat(feature.get("builds").get(0).get("startPoint").asString()).isEqualTo("1.5.19-4");
    assertThat(page).contains("Branch <span>pr-9</span>", "1.5.19-4+pr9.1", "against 1.5.19-4",
        "<span class=\"badge regression\">1 regression</span>", "2.67× slower");
    assertThat(productPage).contains("href=\"/products/" + product + "/branches/feature/fast-copy\"",
        "href=\"/products/" + product + "/branches/pr-9\"");
  }

  @Test
  void aBranchBuildIsComparedWithAnyDefaultVersion() {
    upload(slow("1.5.19-4").onBranch("pr-10", null));

    JsonNode rows = get("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=1.5.19-2&head=1.5.19-4&headBranch=pr-10").get("rows");
    JsonNode mainRows = get("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=1.5.19-2&head=1.5.19-4").get("rows");
    Http.Response none = http().getWithToken("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=1.5.19-2&head=9.9&headBranch=pr-10", TOKEN);

    assertThat(verdict(rows, "write-64b")).isEqualTo("regression");
    assertThat(verdict(rows, "fork")).isEqualTo("unchanged");
    assertThat(verdict(mainRows, "write-64b")).as("main's 1.5.19-4 of the same name").isEqualTo("unchanged");
    assertThat(none.status()).isEqualTo(404);
  }

  @Test
  void anAdminDeletesABranchSoftlyAndRestoresItAndOldBranchesArePruned() {
    upload(slow("1.5.19-4+old").onBranch("old", null));
    upload(slow("1.5.19-4+new").onBranch("new", null));
    upload(slow("1.5.19-4+gone").onBranch("gone", null));
    long mainRuns = count("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?");

    int refused = delete("/api/v1/branches/gone?product=" + product, TOKEN).status();
    Http.Response deleted = delete("/api/v1/branches/gone?product=" + product, ADMIN_TOKEN);
    jdbc.sql("UPDATE branch SET last_run_at = now() - interval '91 days' WHERE name IN ('old', 'gone') AND product_id = "
        + "(SELECT id FROM product WHERE name = ?)").param(product).update();
    int pruned = branches.prune();

    assertThat(refused).isEqualTo(403);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    assertThat(deleted.json().get("target").asString()).isEqualTo("branch gone of " + product + " (1 build)");
    assertThat(pruned).isGreaterThanOrEqualTo(1);
    assertThat(get("/api/v1/branches?product=" + product).findValuesAsString("name")).containsExactly("new");
    assertThat(http().getWithToken("/api/v1/branches/gone?product=" + product, TOKEN).status()).isEqualTo(404);
    assertThat(http().page("/products/" + product + "/branches/gone").status()).isEqualTo(404);
    assertThat(http().getWithToken("/api/v1/compare?product=" + product + "&machine=" + machine
        + "&base=1.5.19-2&head=1.5.19-4+gone&headBranch=gone", TOKEN).status()).isEqualTo(404);
    assertThat(count("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?"))
        .isEqualTo(mainRuns);
    long deletion = deleted.json().get("deletionId").asLong();
    assertThat(http().getWithToken("/api/v1/deletions", ADMIN_TOKEN).body())
        .as("listed under Recently deleted, not pruned while it can be restored")
        .contains("branch gone of " + product + " (1 build)");
    assertThat(http().getWithToken("/api/v1/audit", ADMIN_TOKEN).body())
        .contains("\"target\":\"branch gone of " + product + " (1 build)\"");

    Http.Response restored = http().postJson("/api/v1/deletions/" + deletion + ":restore", "", ADMIN_TOKEN);
    assertThat(restored.status()).as(restored.body()).isEqualTo(200);
    JsonNode gone = get("/api/v1/branches/gone?product=" + product);
    assertThat(gone.get("builds").findValuesAsString("version")).containsExactly("1.5.19-4+gone");
    assertThat(gone.get("builds").get(0).get("results").findValuesAsString("verdict")).contains("regression");
    branches.prune();
    assertThat(http().getWithToken("/api/v1/branches/gone?product=" + product, TOKEN).status())
        .as("a branch an admin restored is not pruned at once for its old last build").isEqualTo(200);
  }

  @Test
  void aBuildSentToADeletedBranchStartsANewOneAndTheOldOneIsNotRestoredOverIt() {
    RunUpload first = slow("1.5.19-4+a").onBranch("pr-20", null);
    upload(first);
    long deletion = delete("/api/v1/branches/pr-20?product=" + product, ADMIN_TOKEN).json().get("deletionId")
        .asLong();
    Http.Response again = http().postJson("/api/v1/runs", json(first), TOKEN);
    assertThat(again.status()).as("stored before: answered, not stored again").isEqualTo(200);
    assertThat(http().getWithToken("/api/v1/branches/pr-20?product=" + product, TOKEN).status())
        .as("a repeated upload does not revive the deleted branch").isEqualTo(404);
    upload(same("1.5.19-4+b").onBranch("pr-20", null));

    Http.Response restored = http().postJson("/api/v1/deletions/" + deletion + ":restore", "", ADMIN_TOKEN);

    assertThat(get("/api/v1/branches/pr-20?product=" + product).get("builds").findValuesAsString("version"))
        .containsExactly("1.5.19-4+b");
    assertThat(restored.status()).isEqualTo(409);
    assertThat(restored.body()).contains("branch pr-20 of " + product, "delete that one first");
    assertThat(delete("/api/v1/branches/pr-20?product=" + product, ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(http().postJson("/api/v1/deletions/" + deletion + ":restore", "", ADMIN_TOKEN).status())
        .isEqualTo(200);
    assertThat(get("/api/v1/branches/pr-20?product=" + product).get("builds").findValuesAsString("version"))
        .containsExactly("1.5.19-4+a");
  }

  @Test
  void aChangeMainWouldWaitOneMoreBuildForIsInconclusiveOnABranchNotUnchanged() {
    RunUpload build = run(product, "1.5.19-4+pr13.1", machine, result("write-64b", 25.3, 25.1, 25.4, 25.2, 25.3),
        result("fork", 75.1, 75.0, 74.8, 75.2, 75.0)).onBranch("pr-13", null);
    Http.Response answer = http().postJson("/api/v1/runs", json(build), TOKEN);
    String id = answer.json().get("id").asString();
    // the same values on main: reported only once one more build shows them
    Http.Response onMain = http().postJson("/api/v1/runs", json(run(product, "1.5.19-5", machine,
        result("write-64b", 25.3, 25.1, 25.4, 25.2, 25.3), result("fork", 75.1, 75.0, 74.8, 75.2, 75.0))), TOKEN);

    assertThat(onMain.json().get("waiting").findValuesAsString("benchmark")).as(onMain.body())
        .containsExactly("write-64b");
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().get("regressions")).isEmpty();
    assertThat(answer.json().get("inconclusive")).as("the answer says so, not only the report").singleElement()
        .satisfies(c -> {
          assertThat(c.get("benchmark").asString()).isEqualTo("write-64b");
          assertThat(c.get("baselineVersion").asString()).isEqualTo("1.5.19-4");
          assertThat(c.get("version").asString()).isEqualTo("1.5.19-4+pr13.1");
          assertThat(c.get("ratio").asDouble()).isGreaterThan(1.3);
          assertThat(c.get("note").asString()).startsWith("inconclusive: the default branch would report it once");
        });
    assertThat(http().postJson("/api/v1/runs", json(build), TOKEN).json().get("inconclusive"))
        .as("sent again: the same answer").hasSize(1);
    assertThat(onMain.json().has("inconclusive")).as("not a field of the default branch's answer").isFalse();
    JsonNode rows = get("/api/v1/branches/pr-13?product=" + product).get("builds").get(0).get("results");
    assertThat(verdict(rows, "write-64b")).isEqualTo("inconclusive");
    assertThat(verdict(rows, "fork")).isEqualTo("unchanged");
    String runPage = http().page("/runs/" + id).text();
    String branchPage = http().page("/products/" + product + "/branches/pr-13").text();
    assertThat(runPage).contains("time-per-op 1.5.19-4 18.03 us 25.27 us 40.1% slower < 0.001 inconclusive")
        .doesNotContain("slower < 0.001 unchanged", "slower — unchanged");
    assertThat(branchPage).contains("40.1% slower < 0.001 inconclusive",
        "time-per-op 1.5.19-4 75.03 us 75.03 us no change — unchanged").doesNotContain("0.0% faster");
    String markdown = http().getWithToken("/api/v1/runs/" + id + "/report?format=markdown", TOKEN).body();
    assertThat(markdown).startsWith("### perftrack: 1 inconclusive change\n").doesNotContain("perftrack: no change")
        .contains("| **inconclusive** |");
    assertThat(http().getWithToken("/api/v1/runs/" + id + "/report?format=junit", TOKEN).body())
        .contains("failures=\"0\"", "<system-out>inconclusive: ");
  }

  @Test
  void aBranchRunSentAgainIsStoredOnceAndAnIdOfMainsOrAStartPointAloneOrAnImportedOneIsRefused() {
    RunUpload build = slow("1.5.19-4+pr11.1").onBranch("pr-11", null);
    Http.Response first = http().postJson("/api/v1/runs", json(build), TOKEN);
    Http.Response again = http().postJson("/api/v1/runs", json(build), TOKEN);
    RunUpload mains = run(product, "1.5.19-5", machine, result("fork", 75.0, 75.2, 74.9, 75.1, 75.0));
    upload(mains);
    Http.Response sameIdAsMain = http().postJson("/api/v1/runs", json(mains.onBranch("pr-11", null)), TOKEN);
    Http.Response startAlone = http().postJson("/api/v1/runs", json(same("1.6").onBranch(null, "1.5.19-4")), TOKEN);
    Http.Response imported = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
            + "/api/v1/runs:import")).header("Content-Type", "application/x-ndjson")
        .header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(json(same("1.6+pr").onBranch("pr-12", null)) + "\n")));

    assertThat(first.status()).isEqualTo(201);
    assertThat(first.json().get("branch").asString()).isEqualTo("pr-11");
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("regressions")).isEqualTo(first.json().get("regressions")).hasSize(1);
    assertThat(sameIdAsMain.status()).isEqualTo(409);
    assertThat(startAlone.status()).isEqualTo(400);
    assertThat(startAlone.body()).contains("\"startPoint\"");
    assertThat(imported.status()).isEqualTo(400);
    assertThat(imported.body()).contains("\"line 1: branch\"", "upload it to /api/v1/runs");
    assertThat(count("SELECT count(*) FROM branch_run r JOIN branch b ON b.id = r.branch_id JOIN product p "
        + "ON p.id = b.product_id WHERE p.name = ?")).isEqualTo(1);
    assertThat(http().postJson("/api/v1/runs", "{}", TOKEN).body()).doesNotContain("\"branch\"");
  }

  private static String verdict(JsonNode rows, String benchmark) {
    return rows.valueStream().filter(r -> r.get("benchmark").asString().equals(benchmark)).findFirst().orElseThrow()
        .get("verdict").asString();
  }

  private RunUpload slow(String version) {
    return run(product, version, machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1),
        result("fork", 75.1, 75.0, 74.8, 75.2, 75.0));
  }

  private RunUpload same(String version) {
    return run(product, version, machine, result("write-64b", 18.1, 18.0, 17.9, 18.2, 18.0),
        result("fork", 75.1, 75.0, 74.8, 75.2, 75.0));
  }

  private long count(String sql) {
    return jdbc.sql(sql).param(product).query(Long.class).single();
  }

  private Http.Response delete(String path, String token) {
    return http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + token).DELETE());
  }

  private JsonNode get(String path) {
    Http.Response r = http().getWithToken(path, TOKEN);
    assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
    return r.json();
  }

  private void upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }
}
