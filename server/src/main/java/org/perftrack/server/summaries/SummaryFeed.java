package org.perftrack.server.summaries;

import java.util.List;
import java.util.stream.Collectors;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.feeds.AtomFeed;
import org.perftrack.server.web.Wording;
import org.springframework.stereotype.Component;

/**
 * {@code /feeds/summaries.atom}: an Atom entry for each summary opened, grown, placed or withdrawn
 * ({@link SummaryMoments}); its id is the summary's address and the moment ({@code …/summaries/12#grew-<run>}), the
 * same each time it is read. The page listing summaries is the home page.
 */
@Component
class SummaryFeed implements AtomFeed.Source {

  private final SummaryMoments moments;
  private final SiteProperties site;

  SummaryFeed(SummaryMoments moments, SiteProperties site) {
    this.moments = moments;
    this.site = site;
  }

  @Override
  public String name() {
    return "summaries";
  }

  @Override
  public String title() {
    return "perftrack: regression summaries";
  }

  @Override
  public String page(String product, String machine) {
    return "/";
  }

  @Override
  public List<AtomFeed.Entry> entries(String product, String machine) {
    return moments.recent(product, machine).stream().map(this::entry).toList();
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
