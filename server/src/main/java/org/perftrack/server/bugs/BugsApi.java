package org.perftrack.server.bugs;

import java.util.List;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Summaries;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET} and {@code PUT /api/v1/regressions/{id}/bugs} and {@code /api/v1/summaries/{id}/bugs}
 * {@code {"urls": ["https://…"]}} (triage scope to set; the list replaces the stored one, empty removes them), and
 * {@code GET} and {@code PUT /api/v1/products/{product}/new-bug-url} {@code {"newBugUrl": "https://…?title={title}&body={body}"}}
 * (admin to set): where the pages' "File a bug" link leads.
 */
@RestController
class BugsApi {

  /** The bugs of a regression or a summary. */
  record BugList(List<String> urls) {}

  /** A product's new-bug URL template, null when none. */
  record NewBugUrl(String newBugUrl) {}

  private final Bugs bugs;
  private final NewBug newBug;
  private final Regressions regressions;
  private final Summaries summaries;

  BugsApi(Bugs bugs, NewBug newBug, Regressions regressions, Summaries summaries) {
    this.bugs = bugs;
    this.newBug = newBug;
    this.regressions = regressions;
    this.summaries = summaries;
  }

  @GetMapping("/api/v1/regressions/{id}/bugs")
  BugList ofRegression(@PathVariable long id) {
    return new BugList(bugs.ofRegression(regression(id)));
  }

  @PutMapping("/api/v1/regressions/{id}/bugs")
  BugList setOfRegression(@PathVariable long id, @RequestBody(required = false) BugList body, Authentication who) {
    return new BugList(bugs.set(Bugs.About.REGRESSION, regression(id), urls(body), who.getName()));
  }

  @GetMapping("/api/v1/summaries/{id}/bugs")
  BugList ofSummary(@PathVariable long id) {
    return new BugList(bugs.ofSummary(summary(id)));
  }

  @PutMapping("/api/v1/summaries/{id}/bugs")
  BugList setOfSummary(@PathVariable long id, @RequestBody(required = false) BugList body, Authentication who) {
    return new BugList(bugs.set(Bugs.About.SUMMARY, summary(id), urls(body), who.getName()));
  }

  @GetMapping("/api/v1/products/{product}/new-bug-url")
  NewBugUrl template(@PathVariable String product) {
    return new NewBugUrl(newBug.template(product).orElseThrow(() -> new NotFound("no product " + product))
        .orElse(null));
  }

  @PutMapping("/api/v1/products/{product}/new-bug-url")
  NewBugUrl setTemplate(@PathVariable String product, @RequestBody(required = false) NewBugUrl body,
      Authentication who) {
    if (body == null) {
      throw new InvalidInput("newBugUrl", "send {\"newBugUrl\": \"https://…{title}…{body}\"} (empty removes it)");
    }
    if (!newBug.set(product, body.newBugUrl(), who.getName())) {
      throw new NotFound("no product " + product);
    }
    return template(product);
  }

  private static List<String> urls(BugList body) {
    return body == null ? null : body.urls();
  }

  private long regression(long id) {
    return regressions.find(id).orElseThrow(() -> new NotFound("no regression " + id)).id();
  }

  private long summary(long id) {
    return summaries.find(id).orElseThrow(() -> new NotFound("no summary " + id)).id();
  }
}
