package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.internet.MimeMessage;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 12 items 15 and 16: a small crawler over a seeded database follows every link of a regression
 * mail and of every page it reaches, and each answers 200. The versions carry a {@code +}
 * ({@code 1.1+a}), which a link that is not strictly encoded turns into a space.
 */
class EveryLinkAnswersTest extends IntegrationTest {

  static final Pattern PAGE_LINK = Pattern.compile("(?:href|src)=\"([^\"#]*)[\"#]");
  static final Pattern MAIL_LINK = Pattern.compile(Pattern.quote(PUBLIC_URL) + "(/[^\\s\"<>]*)");
  static final int MAX_PAGES = 400;
  static final java.net.http.HttpClient BROWSER = java.net.http.HttpClient.newBuilder()
      .followRedirects(java.net.http.HttpClient.Redirect.NORMAL).build();
  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Test
  void everyLinkOfAMailAndOfEveryPageItLeadsToAnswers200() {
    String product = unique("crawl");
    String machine = unique("crawl-box");
    assertThat(http().postJson("/api/v1/runs",
        json(run(product, "1.1+a", machine, result("write-64b", 18.0, 18.1, 17.9, 18.2, 18.0))), TOKEN).status())
        .isEqualTo(201);
    Http.Response slow = http().postJson("/api/v1/runs",
        json(run(product, "1.2+b", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1))), TOKEN);
    assertThat(slow.json().get("regressions")).hasSize(1);
    long summary = slow.json().get("summaries").get(0).get("id").asLong();
    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
        .update(); // the summary's settle time is over

    MimeMessage mail = mailbox.awaitSubject(ALERT_RECIPIENT, "[perftrack] " + product
        + " 1.2+b: 1 regression on 1 of 1 machine, worst write-64b ×2.67 (unconfirmed: one build so far)",
        Duration.ofSeconds(30)).get(0);
    Set<String> start = new LinkedHashSet<>();
    for (String part : new String[] {Mailbox.part(mail, "text/plain"), Mailbox.part(mail, "text/html")}) {
      Matcher m = MAIL_LINK.matcher(part.replace("&amp;", "&"));
      while (m.find()) {
        start.add(m.group(1));
      }
    }
    assertThat(start).as("the mail links the summary, the regression, its series and the comparison")
        .anyMatch(l -> l.startsWith("/summaries/"))
        .anyMatch(l -> l.startsWith("/regressions/"))
        .anyMatch(l -> l.startsWith("/products/" + product + "/series?"))
        .anyMatch(l -> l.startsWith("/compare?") && l.contains("1.2%2Bb"));
    start.add("/");
    start.add("/products/" + product);
    start.add("/machines/" + machine);

    Map<String, Integer> answers = crawl(start, product, machine);
    assertThat(answers).as("pages reached").hasSizeGreaterThan(10);
    assertThat(answers).as("links that did not answer 200").allSatisfy((link, status) -> assertThat(status).isEqualTo(200));

    String csvLink = answers.keySet().stream().filter(l -> l.startsWith("/compare.csv") && l.contains(product)
        && l.contains("head=1.2%2Bb")).findFirst().orElseThrow();
    assertThat(http().get(csvLink).body()).as("the CSV of the pair the page shows").contains("write-64b", "48");
  }

  /** Breadth-first over same-site links that belong to the seeded product (or name no product at all). */
  private Map<String, Integer> crawl(Set<String> start, String product, String machine) {
    Map<String, Integer> answers = new LinkedHashMap<>();
    Deque<String> todo = new ArrayDeque<>(start);
    while (!todo.isEmpty() && answers.size() < MAX_PAGES) {
      String link = todo.poll();
      if (answers.containsKey(link)) {
        continue;
      }
      Http.Response r = followed(link);
      answers.put(link, r.status());
      if (r.status() != 200 || !r.contentType().startsWith("text/html")) {
        continue;
      }
      Matcher m = PAGE_LINK.matcher(r.body());
      while (m.find()) {
        String next = m.group(1).replace("&amp;", "&");
        if (next.startsWith("/") && !next.startsWith("//") && ours(next, product, machine) && !answers.containsKey(next)) {
          todo.add(next);
        }
      }
    }
    return answers;
  }

  /** A redirect (to sign in, to Swagger UI's page) counts as what it leads to. */
  private Http.Response followed(String link) {
    try {
      var r = BROWSER.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + link))
          .header("Accept", "text/html,*/*;q=0.8").build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      return new Http.Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Links to other tests' products and machines are left alone; forms posting elsewhere too. */
  private static boolean ours(String link, String product, String machine) {
    String decoded = URLDecoder.decode(link, StandardCharsets.UTF_8);
    boolean namesSomething = decoded.contains("/products/") || decoded.contains("/machines/") || decoded.contains("/runs/")
        || decoded.contains("/regressions/") || decoded.contains("product=") || decoded.contains("/compare");
    return !link.startsWith("/logout") && !link.contains("/triage") && !link.startsWith("/admin")
        && !link.startsWith("/alerts/subscriptions/") && !link.startsWith("/login")
        && (!namesSomething || decoded.contains(product) || decoded.contains(machine));
  }
}
