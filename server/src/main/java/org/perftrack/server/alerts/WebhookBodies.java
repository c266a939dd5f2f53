package org.perftrack.server.alerts;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.perftrack.server.db.Json;
import org.perftrack.server.web.Links;
import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each kind's request for one delivery, its words made by the mails' formatter ({@link MailView.Row}: units, ratios,
 * versions, suspect ranges): {@code slack} Block Kit within Slack's limits (a Mattermost webhook shows its
 * {@code text}), {@code teams} an Adaptive Card in the envelope of a Workflows webhook, {@code matrix} an
 * {@code m.notice} PUT to the room with the delivery id as the transaction id (Matrix itself drops a repeat), and
 * {@code json} the documented contract, signed.
 */
@Component
class WebhookBodies {

  /** One HTTP call. */
  record Call(String method, URI uri, Map<String, String> headers, byte[] body) {}

  /** The members a chat message names, worst first: a summary of 60 reads "and 42 more". */
  static final int SHOWN = 18;
  static final int SLACK_BLOCKS = 50;
  static final int SLACK_SECTION = 3000;
  static final int SLACK_HEADER = 150;
  static final String SIGNATURE = "X-Perftrack-Signature";

  private final SiteProperties site;
  private final WebhooksProperties props;

  WebhookBodies(SiteProperties site, WebhooksProperties props) {
    this.site = site;
    this.props = props;
  }

  int maxBodyBytes() {
    return props.maxBodyBytes();
  }

  /** The request for {@code deliveryId}, signed at {@code unixSeconds} when the webhook has a json secret. */
  Call call(Webhook w, String deliveryId, WebhookPayload p, long unixSeconds) {
    Message m = Message.of(p, site.base());
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json; charset=utf-8");
    headers.put("X-Perftrack-Event", p.event());
    headers.put("X-Perftrack-Delivery", deliveryId);
    byte[] body = switch (w.kind()) {
      case "slack" -> bytes(slack(m));
      case "teams" -> bytes(teams(m));
      case "matrix" -> bytes(matrix(m));
      default -> json(p, deliveryId, m);
    };
    URI uri = URI.create(w.url());
    String method = "POST";
    if (w.kind().equals("matrix")) {
      method = "PUT";
      uri = URI.create(w.url().replaceFirst("/?$", "") + "/send/m.room.message/" + Links.segment(deliveryId));
      headers.put("Authorization", "Bearer " + w.secret());
    } else if (w.kind().equals("json")) {
      headers.put(SIGNATURE, signature(w.secret(), unixSeconds, body));
    }
    return new Call(method, uri, headers, body);
  }

  /** {@code t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>}, as Stripe signs its webhooks. */
  static String signature(String secret, long unixSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((unixSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  static ObjectNode slack(Message m) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("text", m.headline() + " " + m.url());
    ArrayNode blocks = body.putArray("blocks");
    ObjectNode header = blocks.addObject().put("type", "header");
    header.putObject("text").put("type", "plain_text").put("text", cut(m.headline(), SLACK_HEADER));
    String intro = (m.text() == null ? "" : slackEscape(m.text()) + "\n") + "<" + m.url() + "|" + m.linkLabel() + ">";
    section(blocks, intro);
    for (MailView.Row r : m.rows()) {
      section(blocks, "*<" + r.regressionUrl() + "|" + slackEscape(r.benchmark()) + ">* " + slackEscape(m.line(r)));
    }
    if (m.more() > 0) {
      blocks.addObject().put("type", "context").putArray("elements").addObject().put("type", "mrkdwn")
          .put("text", "and " + m.more() + " more on <" + m.url() + "|the summary page>");
    }
    return body;
  }

  private static void section(ArrayNode blocks, String mrkdwn) {
    blocks.addObject().put("type", "section").putObject("text").put("type", "mrkdwn")
        .put("text", cut(mrkdwn, SLACK_SECTION));
  }

  static ObjectNode teams(Message m) {
    ObjectNode envelope = Json.MAPPER.createObjectNode().put("type", "message");
    ObjectNode attachment = envelope.putArray("attachments").addObject()
        .put("contentType", "application/vnd.microsoft.card.adaptive").putNull("contentUrl");
    ObjectNode card = attachment.putObject("content").put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json")
        .put("type", "AdaptiveCard").put("version", "1.4");
    ArrayNode body = card.putArray("body");
    body.addObject().put("type", "TextBlock").put("text", m.headline()).put("weight", "Bolder").put("size", "Medium")
        .put("wrap", true);
    if (m.text() != null) {
      body.addObject().put("type", "TextBlock").put("text", m.text()).put("wrap", true);
    }
    for (MailView.Row r : m.rows()) {
      body.addObject().put("type", "TextBlock").put("wrap", true)
          .put("text", "[" + r.benchmark() + "](" + r.regressionUrl() + ") " + m.line(r));
    }
    if (m.more() > 0) {
      body.addObject().put("type", "TextBlock").put("text", "and " + m.more() + " more").put("isSubtle", true)
          .put("wrap", true);
    }
    card.putArray("actions").addObject().put("type", "Action.OpenUrl").put("title", m.linkLabel()).put("url", m.url());
    return envelope;
  }

  static ObjectNode matrix(Message m) {
    StringBuilder text = new StringBuilder(m.headline()).append('\n');
    StringBuilder html = new StringBuilder("<p><strong>").append(HtmlUtils.htmlEscape(m.headline()))
        .append("</strong></p>");
    if (m.text() != null) {
      text.append(m.text()).append('\n');
      html.append("<p>").append(HtmlUtils.htmlEscape(m.text())).append("</p>");
    }
    if (!m.rows().isEmpty()) {
      html.append("<ul>");
      for (MailView.Row r : m.rows()) {
        text.append("- ").append(r.benchmark()).append(' ').append(m.line(r)).append('\n');
        html.append("<li><a href=\"").append(HtmlUtils.htmlEscape(r.regressionUrl())).append("\">")
            .append(HtmlUtils.htmlEscape(r.benchmark())).append("</a> ").append(HtmlUtils.htmlEscape(m.line(r)))
            .append("</li>");
      }
      html.append("</ul>");
    }
    if (m.more() > 0) {
      text.append("and ").append(m.more()).append(" more\n");
      html.append("<p>and ").append(m.more()).append(" more</p>");
    }
    text.append(m.url());
    html.append("<p><a href=\"").append(HtmlUtils.htmlEscape(m.url())).append("\">")
        .append(HtmlUtils.htmlEscape(m.linkLabel())).append("</a></p>");
    return Json.MAPPER.createObjectNode().put("msgtype", "m.notice").put("body", text.toString())
        .put("format", "org.matrix.custom.html").put("formatted_body", html.toString());
  }

  /** The contract: event, id, and a summary's members or what the event carries; members cut to fit the size limit. */
  byte[] json(WebhookPayload p, String deliveryId, Message m) {
    int members = p.members().size();
    byte[] body = bytes(json(p, deliveryId, m, members));
    for (int keep = members / 2; body.length > props.maxBodyBytes() && members > 0; keep /= 2) {
      body = bytes(json(p, deliveryId, m, keep));
      if (keep == 0) {
        break;
      }
    }
    return body;
  }

  private static ObjectNode json(WebhookPayload p, String deliveryId, Message m, int keep) {
    ObjectNode body = Json.MAPPER.createObjectNode().put("event", p.event()).put("id", deliveryId)
        .put("text", p.text() == null ? m.headline() : p.text()).put("url", m.url());
    if (p.summaryId() != null) {
      ObjectNode summary = body.putObject("summary").put("id", p.summaryId()).put("product", p.product())
          .put("version", p.version()).put("url", m.url());
      summary.set("members", Json.MAPPER.valueToTree(p.members().subList(0, keep)));
      if (keep < p.members().size()) {
        summary.put("membersOmitted", p.members().size() - keep);
      }
    } else {
      p.about().forEach((k, v) -> body.set(k, Json.MAPPER.valueToTree(v)));
    }
    return body;
  }

  static String slackEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  private static byte[] bytes(ObjectNode node) {
    return Json.MAPPER.writeValueAsBytes(node);
  }

  /** What every kind says, worded once. */
  record Message(String headline, String text, String url, String linkLabel, List<MailView.Row> rows, int more) {

    static Message of(WebhookPayload p, String base) {
      List<MailView.Row> rows = p.members().stream().limit(SHOWN).map(r -> MailView.row(r, base, null, null, List.of())).toList();
      String url = Links.to(base, p.link() == null ? "/" : p.link());
      String label = p.summaryId() != null ? "Open the summary" : "Open in perftrack";
      return new Message(p.headline(), p.text(), url, label, rows, Math.max(0, p.members().size() - SHOWN));
    }

    /** "time-per-op on xp-lab-01: 18.02 us → 48.1 us, ×2.67 (p < 0.001), 1.5.19-4 → 1.5.24-2". */
    String line(MailView.Row r) {
      return r.metric() + " on " + r.machine() + ": " + r.baselineValue() + " → " + r.value() + ", " + r.ratio()
          + " (" + r.confidence() + "), "
          + (r.suspects() == null ? r.baselineVersion() + " → " + r.version() : r.suspects());
    }
  }
}
