package org.perftrack.server.alerts;

import java.util.List;
import org.perftrack.server.detection.Regression;

/**
 * What one outbox row sends, stored as JSON: everything the templates need except the public URL.
 *
 * @param kind {@code run} (regressions one upload created) or {@code digest} (what is still open)
 * @param runId the upload, for {@code run} mails (null when series were judged again without one)
 * @param unsubscribeToken the token of the recipient's subscription
 * @param text the heading when it is not made from the items: a summary's headline, or a {@code lab}
 *     notice itself (an agent silent or back, a bisection's result)
 * @param link the page path the mail is about (a summary, the lab), or null
 */
record MailPayload(String kind, String runId, String product, String machine, String version,
    List<Regression> items, String unsubscribeToken, String text, String link) {

  MailPayload(String kind, String runId, String product, String machine, String version, List<Regression> items,
      String unsubscribeToken) {
    this(kind, runId, product, machine, version, items, unsubscribeToken, null, null);
  }
}
