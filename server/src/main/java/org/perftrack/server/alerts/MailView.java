package org.perftrack.server.alerts;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.web.Links;
import org.perftrack.server.web.Wording;

/**
 * What the mail templates show, formatted once in Java so that the HTML and the text part agree.
 *
 * @param heading one line: what happened where
 * @param intro the line under it in a digest or a summary's mail (one row per machine and benchmark)
 */
record MailView(String heading, String intro, String machine, String product, String version, boolean digest,
    List<Row> rows,
    String regressionsUrl, String subscriptionsUrl, String unsubscribeUrl, String linkUrl) {

  /** What a step seen in one build only says (no later build has shown its level yet), in subject and body. */
  static final String UNCONFIRMED = "unconfirmed: one build so far";

  /**
   * One regression: a block in HTML and text; {@code suspects} its range of versions, null when exact;
   * {@code unconfirmed} {@link #UNCONFIRMED} for a step no later build has shown yet, else null.
   */
  record Row(String benchmark, String metric, String baselineVersion, String version, String machine,
      String baselineValue, String value, String ratio, String change, String confidence, String hints,
      String regressionUrl, String seriesUrl, String compareUrl, String suspects, String unconfirmed,
      String changesUrl, String profileUrl, List<String> bugs) {}

  /**
   * What a subject adds when steps in it were seen in one build only: " (unconfirmed: one build so far)" when all
   * were, " (1 of 3 unconfirmed: one build so far)" when some were, nothing otherwise.
   */
  static String unconfirmedNote(List<Regression> items) {
    long unconfirmed = items.stream().filter(r -> !r.confirmed()).count();
    return unconfirmed == 0 ? "" : unconfirmed == items.size() ? " (" + UNCONFIRMED + ")"
        : " (" + unconfirmed + " of " + items.size() + " " + UNCONFIRMED + ")";
  }

  /**
   * {@code changes}: the link to what changed in a regression's range (ChangeLinks), or null; {@code profile}: the
   * path of its profile ({@link ProfileLink}), or null; {@code bugs}: the bugs filed about it ({@link BugLink}).
   */
  static MailView of(MailPayload p, String base, java.util.function.Function<Regression, String> changes,
      java.util.function.Function<Regression, String> profile, java.util.function.Function<Regression, List<String>> bugs) {
    // a summary spans machines: shown like the digest, one row per machine and benchmark
    boolean summary = "summary".equals(p.kind());
    boolean digest = "digest".equals(p.kind()) || summary;
    List<Row> rows = p.items().stream().map(i -> row(i, base, changes.apply(i), profile.apply(i), bugs.apply(i)))
        .toList();
    String heading = p.text() != null ? p.text() : digest
        ? Wording.count(rows.size(), "open regression") + " you follow"
        : Wording.count(rows.size(), "regression") + " in " + p.product() + " " + p.version()
            + " on " + p.machine();
    String intro = summary ? "One version, every machine that measured it: the worst change first."
        : "Still open today, newest first.";
    if ("lab".equals(p.kind()) && heading.contains("\n")) { // a notice's further lines (a bisection's changes link)
      intro = heading.substring(heading.indexOf('\n') + 1);
      heading = heading.substring(0, heading.indexOf('\n'));
    } else if ("lab".equals(p.kind())) {
      intro = null;
    }
    return new MailView(heading, intro, p.machine(), p.product(), p.version(), digest, rows,
        Links.to(base, "/regressions", "status", "open"),
        Links.to(base, "/alerts/subscriptions"),
        Links.to(base, "/alerts/unsubscribe", "token", p.unsubscribeToken()),
        p.link() == null ? null : Links.to(base, p.link()));
  }

  static Row row(Regression i, String base, String changesUrl, String profilePath, List<String> bugs) {
    String hints = i.hints().stream().map(h -> h.metric() + (h.ratio() == null ? "" : " " + MailFormat.ratio(h.ratio()))
        + " (" + MailFormat.quantity(h.baselineValue(), h.unit()) + " → " + MailFormat.quantity(h.value(), h.unit()) + ")")
        .collect(Collectors.joining("; "));
    return new Row(i.benchmark(), i.metric(), i.baselineVersion(), i.version(), i.machine(),
        MailFormat.quantity(i.baselineValue(), i.unit()), MailFormat.quantity(i.value(), i.unit()), MailFormat.ratio(i.ratio()),
        String.format(Locale.ROOT, "%+.0f%%", (i.ratio() - 1) * 100), MailFormat.confidence(i.pValue()),
        hints,
        Links.to(base, "/regressions/" + i.id()),
        Links.to(base, "/products/" + Links.segment(i.product()) + "/series", "benchmark", i.benchmark(),
            "metric", i.metric(), "machine", i.machine()),
        Links.to(base, "/compare", "product", i.product(), "machine", i.machine(), "base", i.baselineVersion(),
            "head", i.version()), i.ranged() ? i.place() : null, i.confirmed() ? null : UNCONFIRMED, changesUrl,
        profilePath == null ? null : Links.to(base, profilePath), bugs);
  }
}
