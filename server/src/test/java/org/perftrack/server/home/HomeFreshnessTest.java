package org.perftrack.server.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/**
 * The home page's lists are rendered once per change of the data and kept: every change shows on the next visit,
 * whatever made it (an upload, an import judged after it stored its runs, triage, exclusion and inclusion, deletion
 * and restore, renaming and merging machines), each read right after a visit that kept the page as it was before.
 */
class HomeFreshnessTest extends IntegrationTest {

  private final Random random = new Random(11);
  private final String product = unique("home");
  private final String a = unique("home-box-a");
  private final String b = unique("home-box-b");

  @Test
  void everyChangeOfTheDataShowsOnTheNextVisit() {
    for (int v = 1; v <= 10; v++) {
      upload(a, "4." + v, 100);
    }
    upload(b, "4.1", 100);
    assertThat(home()).contains(href("/products/" + product), href("/machines/" + a), href("/machines/" + b));
    assertThat(openSummaries()).isEmpty();

    // an upload: its run, and the summary of the step it brought
    String step = upload(a, "4.11", 160).json().get("id").asString();
    String afterUpload = home();
    assertThat(afterUpload).contains(href("/runs/" + step));
    List<Long> summaries = openSummaries();
    assertThat(summaries).hasSize(1);
    assertThat(whatGotSlower(afterUpload)).contains(href("/summaries/" + summaries.get(0)));

    // excluding the run withdraws the step (its summary says so); including it brings it back
    long summary = summaries.get(0);
    assertThat(summaryRow(afterUpload, summary)).contains("1 on 1 of").doesNotContain("withdrawn");
    String triage = token(Scope.TRIAGE);
    assertThat(http().postJson("/api/v1/runs/" + step + ":exclude", "{\"reason\":\"a noisy day\"}", triage).status())
        .isEqualTo(200);
    assertThat(whatGotSlower(home())).as("nothing of it stands: not among what got slower")
        .doesNotContain(href("/summaries/" + summary));
    assertThat(http().postJson("/api/v1/runs/" + step + ":include", "", triage).status()).isEqualTo(200);
    List<Long> again = openSummaries();
    assertThat(again).hasSize(1);
    assertThat(summaryRow(home(), again.get(0))).contains("1 on 1 of").doesNotContain("withdrawn");

    // triage: an acknowledged summary is no longer among the open ones
    Http.Response triaged = http().patchJson("/api/v1/summaries/" + again.get(0), "{\"status\":\"acknowledged\"}",
        triage);
    assertThat(triaged.status()).as(triaged.body()).isEqualTo(200);
    assertThat(whatGotSlower(home())).doesNotContain(href("/summaries/" + again.get(0)));

    // renaming and merging machines
    String c = unique("home-box-c");
    assertThat(http().postJson("/api/v1/machines/" + a + ":rename", "{\"name\":\"" + c + "\"}", ADMIN_TOKEN).status())
        .isEqualTo(200);
    assertThat(home()).contains(href("/machines/" + c)).doesNotContain(href("/machines/" + a));
    assertThat(http().postJson("/api/v1/machines/" + b + ":merge", "{\"into\":\"" + c + "\"}", ADMIN_TOKEN).status())
        .isEqualTo(200);
    assertThat(home()).contains(href("/machines/" + c)).doesNotContain(href("/machines/" + b));

    // deleting the product, and restoring it
    Http.Response deleted = http().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://localhost:" + port + "/api/v1/products/" + product))
        .DELETE().header("Authorization", "Bearer " + ADMIN_TOKEN));
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    assertThat(home()).doesNotContain(href("/products/" + product));
    long deletion = deleted.json().get("deletionId").asLong();
    assertThat(http().postJson("/api/v1/deletions/" + deletion + ":restore", "", ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(home()).contains(href("/products/" + product));
  }

  /** An import stores its runs in batches and judges them after: its step shows as soon as it answered. */
  @Test
  void anImportsStepShowsOnTheNextVisit() {
    String imported = unique("home-import");
    String box = unique("home-box");
    assertThat(home()).doesNotContain(imported);
    List<String> lines = new ArrayList<>();
    for (int v = 1; v <= 11; v++) {
      lines.add(json(run(imported, "5." + v, box, result(v == 11 ? 160 : 100))));
    }
    Http.Response answer = http().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(String.join("\n", lines))));
    assertThat(answer.json().get("regressions").asInt()).as(answer.body()).isEqualTo(1);

    JsonNode open = http().get("/api/v1/summaries?product=" + imported).json();
    assertThat(open.size()).isEqualTo(1);
    assertThat(whatGotSlower(home())).contains(href("/summaries/" + open.get(0).get("id").asLong()));
  }

  @Test
  void theRunsOfAnImportAreListedNewestVersionFirst() {
    String imported = unique("imported");
    List<String> versions = java.util.stream.IntStream.rangeClosed(1, 12).mapToObj(i -> "2." + i + ".0").toList();
    List<String> newestFirst = new ArrayList<>(versions);
    java.util.Collections.reverse(newestFirst);
    String lines = versions.stream().map(v -> json(run(imported, v, "lab-1", result(100))))
        .collect(java.util.stream.Collectors.joining("\n"));
    assertThat(http().postBytes("/api/v1/runs:import", lines.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "application/x-ndjson", TOKEN).status()).isEqualTo(200);

    String text = http().page("/").text();
    String latest = text.substring(text.indexOf("Latest runs"));
    java.util.regex.Matcher row = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(imported) + " (2\\.\\d+\\.0) ")
        .matcher(latest);
    List<String> shown = new ArrayList<>();
    while (row.find()) {
      shown.add(row.group(1));
    }
    assertThat(shown).as("received together: in version order, newest first (not shuffled)")
        .containsExactlyElementsOf(newestFirst);
  }

  private Http.Response upload(String machine, String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, result(level))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r;
  }

  private ResultUpload result(double level) {
    return new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        Fixtures.sessionSamples(random, level));
  }

  private List<Long> openSummaries() {
    List<Long> ids = new ArrayList<>();
    http().get("/api/v1/summaries?product=" + product).json().forEach(s -> ids.add(s.get("id").asLong()));
    return ids;
  }

  private String home() {
    Http.Response page = http().page("/");
    assertThat(page.status()).isEqualTo(200);
    return page.body();
  }

  /** The page's "What got slower" card. */
  private static String whatGotSlower(String home) {
    int from = home.indexOf("id=\"open-summaries\"");
    int to = home.indexOf("<h2>Products</h2>");
    assertThat(from).isPositive();
    assertThat(to).isGreaterThan(from);
    return home.substring(from, to);
  }

  /** The row of summary {@code id} in the "What got slower" card. */
  private static String summaryRow(String home, long id) {
    String card = whatGotSlower(home);
    int at = card.indexOf(href("/summaries/" + id));
    assertThat(at).as("summary " + id + " on the home page").isPositive();
    return card.substring(card.lastIndexOf("<tr", at), card.indexOf("</tr>", at));
  }

  private static String href(String path) {
    return "href=\"" + path + "\"";
  }
}
