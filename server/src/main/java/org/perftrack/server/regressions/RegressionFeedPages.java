package org.perftrack.server.regressions;

import java.util.List;
import java.util.Locale;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.feeds.AtomFeed;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.web.Wording;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code GET /feeds/regressions.atom?product=&machine=}: an Atom entry for each moment in the history of the newest
 * regressions (found, confirmed, placed, re-attributed, withdrawn, reopened), newest first; its id is the regression's
 * address and the moment ({@code …/regressions/7#placed-<time>}), the same each time it is read.
 */
@Controller
class RegressionFeedPages {

  /** How many regressions, the newest first, the feed tells the history of. */
  static final int REGRESSIONS = 50;

  private final Regressions regressions;
  private final SiteProperties site;

  RegressionFeedPages(Regressions regressions, SiteProperties site) {
    this.regressions = regressions;
    this.site = site;
  }

  @GetMapping("/feeds/regressions.atom")
  ResponseEntity<String> feed(@RequestParam(required = false) String product,
      @RequestParam(required = false) String machine) {
    String p = AtomFeed.filter("product", product);
    String m = AtomFeed.filter("machine", machine);
    String self = site.base() + "/feeds/regressions.atom" + AtomFeed.query(p, m);
    List<AtomFeed.Entry> entries = regressions.list(p, m, List.of(Regression.Status.values()),
        Regression.Kind.REGRESSION, REGRESSIONS).stream().flatMap(r -> r.history().stream().map(e -> entry(r, e)))
        .toList();
    return AtomFeed.answer(new AtomFeed.Feed(self, "perftrack: regressions" + AtomFeed.scope(p, m), self,
        site.base() + "/regressions" + AtomFeed.query(p, m), entries));
  }

  @ExceptionHandler(InvalidInput.class)
  ResponseEntity<ProblemDetail> refused(InvalidInput e) {
    return AtomFeed.refused(e);
  }

  private AtomFeed.Entry entry(Regression r, Regression.Event e) {
    String page = site.base() + "/regressions/" + r.id();
    String title = String.format(Locale.ROOT, "%s %s: %s %s on %s %s %s", r.product(), e.version(), r.benchmark(),
        r.metric(), r.machine(), Wording.ratio(e.ratio()), e.action());
    String text = title + " (from " + e.baselineVersion() + " to " + e.version() + ")"
        + (e.reason() == null ? "" : ": " + e.reason());
    return new AtomFeed.Entry(page + "#" + e.action() + "-" + e.at().toEpochMilli(), title, e.at(), page, text);
  }
}
