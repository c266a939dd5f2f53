package org.perftrack.server.summaries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The Atom feeds, read by a real feed parser (ROME): a summary opened, grown by a second machine, a member placed and
 * a summary withdrawn (its member re-attributed to a backfilled version) are one entry each, with ids that stay the
 * same from one reading to the next; the regressions feed tells each step's history; the filters narrow both.
 */
class SummaryFeedTest extends IntegrationTest {

  @Test
  void eachSummaryMomentIsOneEntryWithAStableIdAndTheFiltersNarrowTheFeed() throws Exception {
    String product = unique("cygwin");
    String xp = unique("xp-lab");
    String w7 = unique("w7-lab");
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(Seed003.run(product, xp, v, 18, 1)));
    long old = upload(Seed003.run(product, xp, "3.7", 48, 3000)).get("summaries").get(0).get("id").asLong();
    upload(Seed003.run(product, xp, "3.6", 48, 3000)); // a backfilled version: the step moves to 3.6
    long now = http().get("/api/v1/summaries/" + old).json().get("movedTo").get(0).asLong();
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(Seed003.run(product, w7, v, 18, 1)));
    upload(Seed003.run(product, w7, "3.6", 48, 3000));
    long member = http().get("/api/v1/summaries/" + now).json().get("members").valueStream()
        .filter(m -> m.get("machine").asString().equals(xp)).findFirst().orElseThrow().get("id").asLong();
    // what the lab's confirm job writes when it narrows a step to one version
    jdbc.sql("""
        INSERT INTO regression_event (regression_id, action, reason, baseline_version, version, ratio, p_value)
        VALUES (?, 'placed', 'placed at 3.6; it was between 3.5 and 3.7', '3.5', '3.6', 2.6, 0.001)""")
        .param(member).update();

    SyndFeed feed = feed("/feeds/summaries.atom?product=" + product);
    assertThat(feed.getTitle()).isEqualTo("perftrack: regression summaries of " + product);
    List<String> titles = feed.getEntries().stream().map(SyndEntry::getTitle).toList();
    assertThat(titles).hasSize(5).containsExactlyInAnyOrder(
        product + " 3.6: write-64b time-per-op on " + xp + " placed at 3.6",
        product + " 3.6: grew by 1 regression (write-64b time-per-op on " + w7 + " ×2.67)",
        product + " 3.6: opened with 1 regression (write-64b time-per-op on " + xp + " ×2.67)",
        product + " 3.7: withdrawn",
        product + " 3.7: opened");
    assertThat(titles.subList(0, 2)).as("newest first").containsExactly(
        product + " 3.6: write-64b time-per-op on " + xp + " placed at 3.6", product + " 3.6: grew by 1 regression (write-64b time-per-op on " + w7 + " ×2.67)");
    assertThat(titles.get(4)).as("oldest last").isEqualTo(product + " 3.7: opened");
    SyndEntry withdrawn = feed.getEntries().get(titles.indexOf(product + " 3.7: withdrawn"));
    assertThat(withdrawn.getLink()).isEqualTo(PUBLIC_URL + "/summaries/" + old);
    assertThat(withdrawn.getDescription().getValue()).contains("re-attributed", "3.6");
    assertThat(feed.getEntries()).extracting(SyndEntry::getUri).doesNotHaveDuplicates()
        .allMatch(id -> id.startsWith(PUBLIC_URL + "/summaries/"))
        .containsExactlyElementsOf(feed("/feeds/summaries.atom?product=" + product).getEntries().stream()
            .map(SyndEntry::getUri).toList());

    assertThat(feed("/feeds/summaries.atom?product=" + product + "&machine=" + w7).getEntries())
        .as("only what happened on w7").extracting(SyndEntry::getTitle)
        .containsExactly(product + " 3.6: grew by 1 regression (write-64b time-per-op on " + w7 + " ×2.67)");

    SyndFeed steps = feed("/feeds/regressions.atom?product=" + product + "&machine=" + xp);
    assertThat(steps.getEntries()).extracting(SyndEntry::getTitle).as("the xp step's history, newest first")
        .first().asString().startsWith(product + " 3.6: write-64b time-per-op on " + xp);
    assertThat(steps.getEntries()).extracting(SyndEntry::getTitle)
        .anyMatch(t -> t.endsWith(" placed")).anyMatch(t -> t.endsWith(" opened"))
        .allMatch(t -> t.contains(" on " + xp + " "));
    assertThat(steps.getLinks()).as("the page that lists the same, and the feed itself")
        .extracting(l -> l.getRel() + " " + l.getHref()).containsExactlyInAnyOrder(
            "alternate " + PUBLIC_URL + "/regressions?product=" + product + "&machine=" + xp,
            "self " + PUBLIC_URL + "/feeds/regressions.atom?product=" + product + "&machine=" + xp);
  }

  @Test
  void aFilterTooLongIsRefusedNamingIt() {
    Http.Response r = http().get("/feeds/summaries.atom?machine=" + "x".repeat(201));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("machine");
  }

  private SyndFeed feed(String path) throws Exception {
    Http.Response r = http().get(path);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.contentType()).startsWith("application/atom+xml");
    return new SyndFeedInput().build(new StringReader(r.body()));
  }

  private JsonNode upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }
}
