package org.perftrack.server.regressions;

import java.util.List;
import java.util.Locale;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.feeds.AtomFeed;
import org.perftrack.server.web.Wording;
import org.springframework.stereotype.Component;

/**
 * {@code /feeds/regressions.atom}: an Atom entry for each moment in the history of the newest regressions (found,
 * confirmed, placed, re-attributed, withdrawn, reopened); its id is the regression's address and the moment
 * ({@code …/regressions/7#placed-<time>}), the same each time it is read.
 */
@Component
class RegressionFeed implements AtomFeed.Source {

  /** How many regressions, the newest first, the feed tells the history of. */
  static final int REGRESSIONS = 50;

  private final Regressions regressions;
  private final SiteProperties site;

  RegressionFeed(Regressions regressions, SiteProperties site) {
    this.regressions = regressions;
    this.site = site;
  }

  @Override
  public String name() {
    return "regressions";
  }

  @Override
  public String title() {
    return "perftrack: regressions";
  }

  @Override
  public String page(String product, String machine) {
    return "/regressions" + AtomFeed.query(product, machine);
  }

  @Override
  public List<AtomFeed.Entry> entries(String product, String machine) {
    return regressions.list(product, machine, List.of(Regression.Status.values()), Regression.Kind.REGRESSION,
        REGRESSIONS).stream().flatMap(r -> r.history().stream().map(e -> entry(r, e))).toList();
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
