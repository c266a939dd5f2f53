package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.db.Json;
import org.perftrack.server.detection.Regression;
import tools.jackson.databind.JsonNode;

/** Each kind's body as a receiver reads it: Slack's Block Kit limits, Teams' card envelope, Matrix's PUT, signed JSON. */
class WebhookBodiesTest {

  static final String BASE = "https://perftrack.example.org";
  final WebhookBodies bodies = new WebhookBodies(new SiteProperties(URI.create(BASE)),
      new WebhooksProperties(List.of(), java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(10), 262_144));

  @Test
  void aSlackSummaryOf60MembersKeepsWithinBlockKitLimitsAndSaysHowManyMore() {
    WebhookBodies.Call call = bodies.call(webhook("slack", null), "d-1", summaryOf(60), 1_700_000_000L);
    JsonNode body = Json.MAPPER.readTree(call.body());

    JsonNode blocks = body.get("blocks");
    assertThat(blocks.size()).isLessThanOrEqualTo(WebhookBodies.SLACK_BLOCKS);
    assertThat(blocks.get(0).get("text").get("text").asString().length()).isLessThanOrEqualTo(150);
    blocks.valueStream().filter(b -> b.get("type").asString().equals("section"))
        .forEach(b -> assertThat(b.get("text").get("text").asString().length()).isLessThanOrEqualTo(3000));
    String all = blocks.toString();
    assertThat(all).contains("and 42 more on <" + BASE + "/summaries/12|the summary page>");
    assertThat(blocks.get(2).get("text").get("text").asString()).as("the worst first, worded as the mails word it")
        .isEqualTo("*<" + BASE + "/regressions/59|bench-59 &lt;64b&gt;>* time-per-op on xp-lab-59: 18 us → "
            + "48.59 us, ×2.7 (p &lt; 0.001), 1.5.19-4 → 1.5.24-2");
    assertThat(body.get("text").asString()).as("what Mattermost and notifications show")
        .isEqualTo("cygwin 1.5.24-2: 60 regressions " + BASE + "/summaries/12");
    assertThat(call.method()).isEqualTo("POST");
    assertThat(call.headers()).doesNotContainKey(WebhookBodies.SIGNATURE);
  }

  @Test
  void aSlackSectionLongerThan3000CharactersIsCut() {
    WebhookPayload p = new WebhookPayload("agent.failing", "cygwin", "xp", null, "xp failed", "x".repeat(5000), "/lab",
        null, List.of(), Map.of());
    JsonNode blocks = Json.MAPPER.readTree(bodies.call(webhook("slack", null), "d", p, 0).body()).get("blocks");

    assertThat(blocks.get(1).get("text").get("text").asString()).hasSize(3000).endsWith("…");
  }

  @Test
  void teamsGetsAnAdaptiveCardInTheWorkflowsEnvelope() {
    JsonNode body = Json.MAPPER.readTree(bodies.call(webhook("teams", null), "d-2", summaryOf(3), 0).body());

    assertThat(body.get("type").asString()).isEqualTo("message");
    JsonNode attachment = body.get("attachments").get(0);
    assertThat(attachment.get("contentType").asString()).isEqualTo("application/vnd.microsoft.card.adaptive");
    JsonNode card = attachment.get("content");
    assertThat(card.get("type").asString()).isEqualTo("AdaptiveCard");
    assertThat(card.get("body").get(0).get("text").asString()).isEqualTo("cygwin 1.5.24-2: 3 regressions");
    assertThat(card.get("body")).hasSize(4);
    assertThat(card.get("actions").get(0).get("url").asString()).isEqualTo(BASE + "/summaries/12");
  }

  @Test
  void matrixPutsANoticeIntoTheRoomWithTheDeliveryIdAsTransaction() {
    Webhook room = webhook("matrix", "syt_token");
    WebhookBodies.Call call = bodies.call(room, "0f29-delivery", summaryOf(2), 0);
    JsonNode body = Json.MAPPER.readTree(call.body());

    assertThat(call.method()).isEqualTo("PUT");
    assertThat(call.uri().toString()).isEqualTo(room.url() + "/send/m.room.message/0f29-delivery");
    assertThat(call.headers()).containsEntry("Authorization", "Bearer syt_token");
    assertThat(body.get("msgtype").asString()).isEqualTo("m.notice");
    assertThat(body.get("formatted_body").asString()).contains("bench-1 &lt;64b&gt;</a>").doesNotContain("<64b>");
    assertThat(body.get("body").asString()).startsWith("cygwin 1.5.24-2: 2 regressions\n- bench-1 <64b> time-per-op");
  }

  @Test
  void jsonIsTheContractSignedOverTheTimeAndTheBody() throws Exception {
    WebhookBodies.Call call = bodies.call(webhook("json", "whsec_k"), "d-3", summaryOf(3), 1_700_000_000L);
    JsonNode body = Json.MAPPER.readTree(call.body());

    assertThat(body.get("event").asString()).isEqualTo("summary.opened");
    assertThat(body.get("id").asString()).isEqualTo("d-3");
    assertThat(body.get("summary").get("id").asLong()).isEqualTo(12);
    assertThat(body.get("summary").get("members")).hasSize(3);
    assertThat(body.get("summary").get("members").get(0).get("benchmark").asString()).isEqualTo("bench-2 <64b>");
    String signature = call.headers().get(WebhookBodies.SIGNATURE);
    assertThat(signature).startsWith("t=1700000000,v1=");
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(new javax.crypto.spec.SecretKeySpec("whsec_k".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    String expected = java.util.HexFormat.of().formatHex(mac.doFinal(
        ("1700000000." + new String(call.body(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
    assertThat(signature).isEqualTo("t=1700000000,v1=" + expected);
  }

  @Test
  void aJsonSummaryTooLargeForTheLimitKeepsTheWorstMembersAndCountsTheRest() {
    WebhookBodies small = new WebhookBodies(new SiteProperties(URI.create(BASE)),
        new WebhooksProperties(List.of(), java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(10), 8192));
    byte[] bytes = small.call(webhook("json", "k"), "d-4", summaryOf(60), 0).body();
    JsonNode summary = Json.MAPPER.readTree(bytes).get("summary");

    assertThat(bytes.length).isLessThanOrEqualTo(8192);
    assertThat(summary.get("members").size() + summary.get("membersOmitted").asInt()).isEqualTo(60);
    assertThat(summary.get("members").size()).isPositive();
  }

  private static Webhook webhook(String kind, String secret) {
    String url = kind.equals("matrix") ? "https://matrix.example.org/_matrix/client/v3/rooms/!r:example.org"
        : "https://hooks.example.org/services/T0/B0/x";
    return new Webhook(1, kind, url, secret, null, null, null, 0, Webhook.EVENTS, "admin", null, null, null);
  }

  /** A summary of {@code n} members, one per machine, worst first; a name with {@code <>} to escape. */
  static WebhookPayload summaryOf(int n) {
    List<Regression> members = new ArrayList<>();
    IntStream.range(0, n).map(i -> n - 1 - i).forEach(i -> members.add(withId(RegressionValues.slower("cygwin",
        "xp-lab-" + i, "bench-" + i + " <64b>", "1.5.19-4", "1.5.24-2", 18.0, 48.0 + i / 100.0), i)));
    return new WebhookPayload("summary.opened", "cygwin", null, "1.5.24-2", "cygwin 1.5.24-2: " + n + " regressions",
        null, "/summaries/12", 12L, members, Map.of());
  }

  private static Regression withId(Regression r, long id) {
    return new Regression(id, r.product(), r.machine(), r.benchmark(), r.metric(), r.unit(), r.direction(), r.kind(),
        r.baselineVersion(), r.version(), r.baselineValue(), r.value(), r.ratio(), r.pValue(), r.status(),
        r.detectedAt(), r.updatedAt(), r.note(), r.triagedBy(), r.withdrawnReason(), r.hints(), r.history(),
        r.summaryId(), r.bisection(), r.confirmed(), r.firstSuspect(), r.lastSuspect());
  }
}
