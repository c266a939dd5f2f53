package org.perftrack.server.bugs;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
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
  private final BugTargets targets;

  BugsApi(Bugs bugs, NewBug newBug, BugTargets targets) {
    this.bugs = bugs;
    this.newBug = newBug;
    this.targets = targets;
  }

  @GetMapping({"/api/v1/regressions/{id}/bugs", "/api/v1/summaries/{id}/bugs"})
  BugList list(@PathVariable long id, HttpServletRequest request) {
    Bugs.About about = BugTargets.about(request);
    return new BugList(bugs.of(about, targets.existing(about, id)));
  }

  @PutMapping({"/api/v1/regressions/{id}/bugs", "/api/v1/summaries/{id}/bugs"})
  BugList set(@PathVariable long id, @RequestBody(required = false) BugList body, Authentication who,
      HttpServletRequest request) {
    Bugs.About about = BugTargets.about(request);
    return new BugList(bugs.set(about, targets.existing(about, id), body == null ? null : body.urls(),
        who.getName()));
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
}
