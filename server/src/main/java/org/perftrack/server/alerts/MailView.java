package org.perftrack.server.alerts;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.perftrack.server.detection.Regression;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * What the mail templates show, formatted once in Java so that the HTML and the text part agree.
 *
 * @param heading one line: what happened where
 */
record MailView(String heading, String machine, String product, String version, boolean digest, List<Row> rows,
    String regressionsUrl, String subscriptionsUrl, String unsubscribeUrl, String noticeUrl) {

  /** One regression: a table row in HTML, a block in text. */
  record Row(String benchmark, String metric, String unit, String baselineVersion, String version, String machine,
      String baselineValue, String value, String ratio, String change, String confidence, String hints,
      String regressionUrl, String seriesUrl, String compareUrl) {}

  static MailView of(MailPayload p, String base) {
    boolean digest = "digest".equals(p.kind());
    List<Row> rows = p.items().stream().map(i -> row(i, base)).toList();
    String heading = p.text() != null ? p.text() : digest
        ? rows.size() + " open regression" + (rows.size() == 1 ? "" : "s") + " you follow"
        : rows.size() + " regression" + (rows.size() == 1 ? "" : "s") + " in " + p.product() + " " + p.version()
            + " on " + p.machine();
    return new MailView(heading, p.machine(), p.product(), p.version(), digest, rows,
        url(base, "/regressions").queryParam("status", "open").toUriString(),
        url(base, "/alerts/subscriptions").toUriString(),
        url(base, "/alerts/unsubscribe").queryParam("token", p.unsubscribeToken()).toUriString(),
        p.link() == null ? null : url(base, p.link()).toUriString());
  }

  private static Row row(Regression i, String base) {
    String hints = i.hints().stream().map(h -> h.metric() + (h.ratio() == null ? "" : " ×" + MailFormat.ratio(h.ratio()))
        + " (" + MailFormat.value(h.baselineValue()) + " → " + MailFormat.value(h.value()) + " " + h.unit() + ")")
        .collect(Collectors.joining("; "));
    return new Row(i.benchmark(), i.metric(), i.unit(), i.baselineVersion(), i.version(), i.machine(),
        MailFormat.value(i.baselineValue()), MailFormat.value(i.value()), "×" + MailFormat.ratio(i.ratio()),
        String.format(Locale.ROOT, "%+.0f %%", (i.ratio() - 1) * 100), MailFormat.confidence(i.pValue()),
        hints,
        url(base, "/regressions/" + i.id()).toUriString(),
        url(base, "/series").queryParam("product", i.product()).queryParam("machine", i.machine())
            .queryParam("benchmark", i.benchmark()).queryParam("metric", i.metric()).encode().toUriString(),
        url(base, "/compare").queryParam("product", i.product()).queryParam("machine", i.machine())
            .queryParam("base", i.baselineVersion()).queryParam("head", i.version()).encode().toUriString());
  }

  private static UriComponentsBuilder url(String base, String path) {
    return UriComponentsBuilder.fromUriString(base + path);
  }
}
