package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * The pages of what an admin deleted: a 404 that says who deleted it, when, and where to restore it; a deleted
 * product's run page that links to no 404; a machine page that says why it shows no runs. And a refused machine
 * rename that answers with its form and error, leaving nothing for the next visit.
 */
class DeletedPagesTest extends IntegrationTest {

  private static final Pattern HREF = Pattern.compile("href=\"([^\"#]+)\"");

  private final Random random = new Random(11);
  private final String product = unique("cygwin");
  private final String machine = unique("xp-only");

  @Test
  void aDeletedProductsPagesSayItWasDeletedAndWhereToRestoreItAndItsRunPageLinksToNo404() {
    String first = upload("1.0", 100);
    String last = upload("1.1", 300);
    Http.Response branchBuild = http().postJson("/api/v1/runs", json(run(product, "1.1+pr", machine, result(100))
        .onBranch("pr-3", null)), TOKEN);
    assertThat(branchBuild.status()).as(branchBuild.body()).isEqualTo(201);

    assertThat(delete("/api/v1/products/" + product).status()).isEqualTo(200);

    String deleted = "Product " + product + " was deleted by token:test-admin at ";
    for (String page : List.of("/products/" + product,
        "/products/" + product + "/series?benchmark=write-64b&metric=time-per-op",
        "/products/" + product + "/branches/pr-3")) {
      Http.Response anonymous = http().page(page);
      assertThat(anonymous.status()).as(page).isEqualTo(404);
      assertThat(text(anonymous.body())).as("who deleted what is an admin's to read").doesNotContain("deleted");
      Http.Response r = adminPage(page);
      assertThat(r.status()).as(page).isEqualTo(404);
      assertThat(text(r.body())).as(page).contains(deleted)
          .contains("An admin can restore it under Recently deleted until it is purged.");
      assertThat(r.body()).as(page).contains("href=\"/admin/deleted\"");
    }
    Http.Response compare = adminPage("/compare?product=" + product);
    assertThat(compare.status()).isEqualTo(404);
    assertThat(text(compare.body())).contains(deleted, "an admin can restore it under Recently deleted");
    assertThat(text(http().page("/products/no-such-" + product).body()))
        .as("never there: no word of deletion").contains("There is nothing at this address").doesNotContain("deleted");

    for (String run : List.of(first, last, branchBuild.json().get("id").asString())) {
      assertThat(http().page("/runs/" + run).status()).as("a deleted product's runs are an admin's").isEqualTo(404);
      assertThat(http().get("/api/v1/runs/" + run).status()).isEqualTo(404);
      assertThat(http().get("/api/v1/runs/" + run + "/report").status()).isEqualTo(404);
      assertThat(http().getWithToken("/api/v1/runs/" + run, ADMIN_TOKEN).status()).isEqualTo(200);
      Http.Response page = adminPage("/runs/" + run);
      assertThat(page.status()).isEqualTo(200);
      assertThat(text(page.body())).as(run).contains(deleted, "This run counts nowhere; an admin can restore the"
          + " product under Recently deleted until it is purged.");
      List<String> broken = new ArrayList<>();
      Matcher links = HREF.matcher(page.body());
      while (links.find()) {
        String href = links.group(1).replace("&amp;", "&");
        if (href.startsWith("/") && !href.startsWith("/admin") && !href.startsWith("/css") && !href.startsWith("/js")
            && adminPage(href).status() == 404) {
          broken.add(href);
        }
      }
      assertThat(broken).as("links of the run page of a deleted product that answer 404").isEmpty();
    }

    Http.Response box = http().page("/machines/" + machine);
    assertThat(box.status()).isEqualTo(200);
    assertThat(text(box.body())).contains("No runs to show: its runs belong to deleted product " + product
        + ". An admin can restore them under Recently deleted until they are purged.")
        .doesNotContain("No runs from this machine yet");
  }

  @Test
  void aDeletedBranchOrMachinePageSaysItWasDeleted() {
    upload("2.0", 100);
    Http.Response build = http().postJson("/api/v1/runs", json(run(product, "2.0+pr", machine, result(100))
        .onBranch("pr-4", null)), TOKEN);
    assertThat(build.status()).as(build.body()).isEqualTo(201);

    assertThat(delete("/api/v1/branches/pr-4?product=" + product).status()).isEqualTo(200);
    Http.Response branch = adminPage("/products/" + product + "/branches/pr-4");
    assertThat(branch.status()).isEqualTo(404);
    assertThat(text(branch.body())).contains("Branch pr-4 of " + product + " was deleted by token:test-admin at ",
        "An admin can restore it under Recently deleted");
    Http.Response run = adminPage("/runs/" + build.json().get("id").asString());
    assertThat(run.body()).doesNotContain("/branches/pr-4\"");

    assertThat(delete("/api/v1/machines/" + machine).status()).isEqualTo(200);
    Http.Response box = adminPage("/machines/" + machine);
    assertThat(box.status()).isEqualTo(404);
    assertThat(text(http().page("/machines/" + machine).body())).doesNotContain("deleted");
    assertThat(text(box.body())).contains("Machine " + machine + " was deleted by token:test-admin at ",
        "An admin can restore it under Recently deleted");
  }

  @Test
  void aDeletedMachineLeavesTheProductPageComparesDefaultsAndHomesLatestVersion() {
    String gone = unique("gone-lab");
    for (String version : List.of("1.0", "1.1", "1.2")) {
      upload(version, 100);
    }
    for (String version : List.of("1.0", "1.1", "1.2", "1.3", "2.0")) {
      Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, gone, result(100),
          new ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
              Fixtures.sessionSamples(random, 80)))), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    assertThat(delete("/api/v1/machines/" + gone).status()).isEqualTo(200);

    String page = http().page("/products/" + product).text();
    assertThat(page).contains("3 versions, 1 machine").doesNotContain(gone).doesNotContain("fork");
    assertThat(http().page("/compare?product=" + product).text()).contains(product + " 1.1 → 1.2 on 1 machine");
    Matcher row = Pattern.compile("(?s)<tr>(?:(?!</tr>).)*href=\"/products/" + product + "\"(?:(?!</tr>).)*</tr>")
        .matcher(http().page("/").body());
    assertThat(row.find()).isTrue();
    assertThat(text(row.group()).trim()).as("home's product row: versions, machines, latest version")
        .isEqualTo(product + " 3 versions on 1 machine 3 1 1.2");
    assertThat(http().getWithToken("/api/v1/products/" + product + "/versions", TOKEN).json().get("items").toString())
        .as("the API's versions agree").doesNotContain("1.3").doesNotContain("2.0");
  }

  @Test
  void recentlyDeletedCountsInWordsAndSaysHowLongItKeeps() {
    upload("3.0", 100);
    upload("3.1", 100);
    FormClient admin = signedInAdmin();
    assertThat(text(admin.get("/admin/versions/delete?product=" + product + "&version=3.1").body()))
        .as("a step elsewhere in its series may go: one in noise withdrawn by deleting an old version surprised")
        .contains("its series judged again without it: a small step that was only just clear may be withdrawn too"
            + " (restoring it judges them again)");
    assertThat(delete("/api/v1/products/" + product + "/versions/3.1").status()).isEqualTo(200);
    assertThat(text(admin.get("/admin/products/" + product + "/delete").body()))
        .contains("It stays under Recently deleted for 7 days, where it can be restored");
    assertThat(delete("/api/v1/products/" + product).status()).isEqualTo(200);

    assertThat(text(admin.get("/admin/deleted").body()))
        .contains("version 3.1 of " + product + " (1 run)", "product " + product + " (1 version)",
            "each can be restored until it is purged, 7 days after its deletion");
  }

  @Test
  void theMachinesDeleteConfirmationCountsTheBranchBuildsMeasuredOnIt() {
    upload("2.0", 100);
    upload("2.1", 100);
    for (String[] build : new String[][] {{"2.1+pr1", "pr-1"}, {"2.1+pr1.2", "pr-1"}, {"2.1+pr2", "pr-2"}}) {
      Http.Response r = http().postJson("/api/v1/runs", json(run(product, build[0], machine, result(100))
          .onBranch(build[1], null)), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
    String elsewhere = unique("other-box");
    for (RunUpload run : List.of(run(product, "2.1", elsewhere, result(100)),
        run(product, "2.1+pr2.1", elsewhere, result(100)).onBranch("pr-2", null))) {
      Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
    FormClient admin = signedInAdmin();

    HttpResponse<String> confirm = admin.get("/admin/machines/" + machine + "/delete");

    assertThat(confirm.statusCode()).isEqualTo(200);
    assertThat(text(confirm.body())).contains("2 runs of 2 versions measured on it",
        "3 builds of 2 branches measured on it, with their reports");
    assertThat(text(admin.get("/admin/machines/" + elsewhere + "/delete").body()))
        .contains("1 build of 1 branch measured on it");
    assertThat(text(admin.get("/admin/products/" + product + "/delete").body()))
        .contains("2 branches with 4 builds, their pages and reports");
  }

  @Test
  void aRefusedRenameAnswersWithItsFormAndErrorAndTheNextVisitShowsNoError() {
    upload("3.0", 100);
    String other = unique("taken");
    Http.Response taken = http().postJson("/api/v1/runs", json(run(product, "3.0", other, result(100))), TOKEN);
    assertThat(taken.status()).isEqualTo(201);
    FormClient admin = signedInAdmin();

    HttpResponse<String> refused = admin.post("/admin/machines/" + machine, "/admin/machines/" + machine + "/rename",
        "name=" + FormClient.enc(other));

    assertThat(refused.statusCode()).as("the form again, with its error").isEqualTo(200);
    assertThat(text(refused.body())).contains("a machine " + other + " exists already");
    assertThat(refused.body()).contains("value=\"" + other + "\"");
    HttpResponse<String> next = admin.get("/admin/machines/" + machine);
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(next.body()).doesNotContain("rename-error", "exists already");

    HttpResponse<String> merge = admin.post("/admin/machines/" + machine, "/admin/machines/" + machine + "/merge",
        "into=" + FormClient.enc(unique("nobody")));
    assertThat(merge.statusCode()).isEqualTo(200);
    assertThat(merge.body()).contains("id=\"merge-error\"");
    assertThat(admin.get("/admin/machines/" + machine).body()).doesNotContain("merge-error");
  }

  /** What a person reads: the text without tags, spaces collapsed. */
  private static String text(String html) {
    return html.replaceAll("(?s)<head>.*?</head>", "").replaceAll("<[^>]+>", " ").replace("&amp;", "&")
        .replaceAll("\\s+", " ").replaceAll(" ([.,;:])", "$1");
  }

  private static ResultUpload result(double level) {
    return new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        Fixtures.sessionSamples(new Random(3), level));
  }

  private String upload(String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, new ResultUpload(
        "write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, level)))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }

  /** A page as a signed-in admin sees it. */
  private Http.Response adminPage(String path) {
    if (admin == null) {
      admin = signedInAdmin();
    }
    java.net.http.HttpResponse<String> r = admin.get(path);
    return new Http.Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
  }

  private FormClient admin;

  private Http.Response delete(String path) {
    return http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE());
  }
}
