package org.perftrack.server.summaries;

import java.util.List;
import java.util.stream.Collectors;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.detection.Regression;
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
 * {@code GET /feeds/summaries.atom?product=&machine=}: an Atom entry for each summary opened, grown, placed or
 * withdrawn ({@link SummaryMoments}), newest first; its id is the summary's address and the moment
 * ({@code …/summaries/12#grew-<run>}), the same each time it is read.
 */
@Controller
class SummaryFeedPages {

  private final SummaryMoments moments;
  private final SiteProperties site;

  SummaryFeedPages(SummaryMoments moments, SiteProperties site) {
    this.moments = moments;
    this.site = site;
  }

  @GetMapping("/feeds/summaries.atom")
  ResponseEntity<String> feed(@RequestParam(required = false) String product,
      @RequestParam(required = false) String machine) {
    String p = AtomFeed.filter("product", product);
    String m = AtomFeed.filter("machine", machine);
    String self = site.base() + "/feeds/summaries.atom" + AtomFeed.query(p, m);
    List<AtomFeed.Entry> entries = moments.recent(p, m).stream().map(this::entry).toList();
    return AtomFeed.answer(new AtomFeed.Feed(self, "perftrack: regression summaries" + AtomFeed.scope(p, m), self,
        site.base() + "/summaries", entries));
  }

  @ExceptionHandler(InvalidInput.class)
  ResponseEntity<ProblemDetail> refused(InvalidInput e) {
    return AtomFeed.refused(e);
  }

  private AtomFeed.Entry entry(SummaryMoments.Moment m) {
    Summary s = m.summary();
    String page = site.base() + Summaries.url(s.id());
    return new AtomFeed.Entry(page + "#" + m.key(), s.product() + " " + s.version() + ": " + title(m), m.at(), page,
        s.headline() + (m.said() == null ? "" : ". " + m.said()));
  }

  /**
   * "opened with 2 regressions (write-64b time-per-op on xp ×2.67, fork time-per-op on w7 ×1.31)", "write-64b
   * time-per-op on xp placed at 1.5.21-1".
   */
  static String title(SummaryMoments.Moment m) {
    return switch (m.kind()) {
      case OPENED -> "opened" + (m.about().isEmpty() ? "" : " with " + members(m.about()));
      case GREW -> "grew by " + members(m.about());
      case PLACED -> m.about().stream().map(r -> what(r) + " placed " + (r.ranged() ? "" : "at ") + r.place())
          .collect(Collectors.joining(", "));
      case WITHDRAWN -> "withdrawn";
    };
  }

  private static String members(List<Regression> about) {
    return Wording.count(about.size(), "regression") + " (" + about.stream().limit(5)
        .map(r -> what(r) + " " + Wording.ratio(r.ratio()))
        .collect(Collectors.joining(", ")) + (about.size() > 5 ? ", …" : "") + ")";
  }

  private static String what(Regression r) {
    return r.benchmark() + " " + r.metric() + " on " + r.machine();
  }
}
