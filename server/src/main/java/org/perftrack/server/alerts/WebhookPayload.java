package org.perftrack.server.alerts;

import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;

/**
 * What one webhook delivery says, stored as JSON in its outbox row; each kind's body is made from it when sent.
 *
 * @param event its name, e.g. {@code summary.opened}, {@code agent.silent}
 * @param headline one line: the mail's subject without its {@code [perftrack]} tag
 * @param text a lab notice's sentence, or null for a summary (its members say it)
 * @param link the page it is about, a path such as {@code /summaries/12}
 * @param summaryId for {@code summary.*}: the summary; {@code members} then holds its members, worst first
 * @param about for the other events, what they carry: {@code {"agent": {...}}}, {@code {"bisection": {...}}}, …
 */
record WebhookPayload(String event, String product, String machine, String version, String headline, String text,
    String link, Long summaryId, List<Regression> members, Map<String, Object> about) {

  WebhookPayload {
    members = members == null ? List.of() : members;
    about = about == null ? Map.of() : about;
  }
}
