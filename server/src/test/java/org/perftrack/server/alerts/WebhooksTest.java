package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.perftrack.server.db.EmbeddedPostgresServer;
import org.perftrack.server.security.Scope;
import org.perftrack.server.summaries.Seed003;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Webhooks end to end: made over the API by an admin, delivered by the outbox to a real HTTP receiver this test
 * starts on 127.0.0.1 (the only network {@code perftrack.webhooks.allowed-networks} opens), signed, retried with the
 * same delivery id, disabled by a 410, and delivered once per event also by two servers sharing the database.
 */
class WebhooksTest extends IntegrationTest {

  @Autowired AlertService alerts;
  @Autowired EmbeddedPostgresServer postgres;

  @Test
  void anAdminMakesAWebhookWhoseSecretIsShownOnceAndNeverByAGet() {
    String product = unique("hooked");
    String body = json(Map.of("url", "http://127.0.0.1:9/hook", "kind", "json", "product", product,
        "events", List.of("summary.opened", "agent.silent")));

    assertThat(http().postJson("/api/v1/webhooks", body, null).status()).isEqualTo(401);
    assertThat(http().postJson("/api/v1/webhooks", body, token(Scope.TRIAGE)).status()).isEqualTo(403);
    assertThat(http().getWithToken("/api/v1/webhooks", token(Scope.READ)).status()).as("admins only").isEqualTo(403);
    Http.Response created = http().postJson("/api/v1/webhooks", body, ADMIN_TOKEN);

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    String secret = created.json().get("secret").asString();
    long id = created.json().get("id").asLong();
    assertThat(secret).startsWith("whsec_").hasSizeGreaterThan(40);
    assertThat(created.json().get("events").valueStream().map(JsonNode::asString))
        .containsExactly("summary.opened", "agent.silent");
    String list = http().getWithToken("/api/v1/webhooks", ADMIN_TOKEN).body();
    String one = http().getWithToken("/api/v1/webhooks/" + id, ADMIN_TOKEN).body();
    assertThat(list).contains(product).doesNotContain(secret);
    assertThat(one).contains("http://127.0.0.1:9/hook").doesNotContain(secret);
    assertThat(http().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
        "http://localhost:" + port + "/api/v1/webhooks/" + id)).header("Authorization", "Bearer " + ADMIN_TOKEN)
        .DELETE()).status()).isEqualTo(204);
    assertThat(http().getWithToken("/api/v1/webhooks/" + id, ADMIN_TOKEN).status()).isEqualTo(404);

    JsonNode paths = http().get("/v3/api-docs").json().get("paths");
    assertThat(paths.get("/api/v1/webhooks").get("post").get("summary").asString()).contains("secret");
    assertThat(paths.get("/api/v1/webhooks").get("post").get("responses").get("400").get("$ref").asString())
        .isEqualTo("#/components/responses/BadRequest");
    assertThat(paths.get("/api/v1/webhooks/{id}").get("delete").get("responses").get("404").get("$ref").asString())
        .isEqualTo("#/components/responses/NotFound");
    assertThat(paths.get("/api/v1/webhooks/{id}/test").get("post").get("responses").has("403")).isTrue();
  }

  @Test
  void addressesInsideTheServersNetworkAreRefusedNamingTheField() {
    for (String url : List.of("http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data",
        "http://[::1]:8080/hook", "http://192.168.1.20/", "http://[fd00::1]/")) {
      Http.Response r = http().postJson("/api/v1/webhooks", json(Map.of("url", url, "kind", "json")), ADMIN_TOKEN);

      assertThat(r.status()).as(url).isEqualTo(400);
      assertThat(r.contentType()).startsWith("application/problem+json");
      assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("url");
      assertThat(r.json().get("fields").get(0).get("message").asString()).as(url)
          .containsAnyOf("is a private address", "is a link-local address", "is a loopback address")
          .contains("perftrack.webhooks.allowed-networks");
    }
    Http.Response bad = http().postJson("/api/v1/webhooks", json(Map.of("url", "ftp://example.org/x", "kind", "irc",
        "events", List.of("summary.exploded"), "minChangePercent", -1)), ADMIN_TOKEN);
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("fields").findValuesAsString("field"))
        .containsExactlyInAnyOrder("url", "kind", "events", "minChangePercent");
    Http.Response matrix = http().postJson("/api/v1/webhooks", json(Map.of("kind", "matrix",
        "url", "http://127.0.0.1:9/_matrix/client/v3/rooms/!r:example.org")), ADMIN_TOKEN);
    assertThat(matrix.json().get("fields").findValuesAsString("field")).as("the access token").containsExactly("secret");
  }

  @Test
  void aSignedDeliveryVerifiesAndA503IsRetriedWithTheSameId() throws Exception {
    try (Receiver receiver = Receiver.answering(503)) {
      String product = unique("signed");
      Http.Response made = make(receiver.url("/perftrack"), "json", product);
      String secret = made.json().get("secret").asString();

      silent(product, "lab-1");

      await().atMost(Duration.ofSeconds(30)).until(() -> receiver.requests().size() >= 2);
      List<Receiver.Request> got = receiver.requests();
      assertThat(got).hasSize(2);
      assertThat(got.stream().map(r -> r.json().get("id").asString()).distinct()).as("a retry keeps its id").hasSize(1);
      assertThat(got.get(1).header("X-Perftrack-Delivery")).isEqualTo(got.get(0).json().get("id").asString());
      JsonNode body = got.get(1).json();
      assertThat(body.get("event").asString()).isEqualTo("agent.silent");
      assertThat(body.get("agent").get("machine").asString()).isEqualTo("lab-1");
      assertThat(body.get("url").asString()).isEqualTo(PUBLIC_URL + "/lab");
      for (Receiver.Request r : got) {
        assertThat(verifies(secret, r.header("X-Perftrack-Signature"), r.body())).as("signed as documented").isTrue();
        assertThat(verifies("another secret", r.header("X-Perftrack-Signature"), r.body())).isFalse();
      }
      JsonNode delivery = http().getWithToken("/api/v1/webhooks/" + made.json().get("id").asLong(), ADMIN_TOKEN).json()
          .get("deliveries").get(0);
      await().atMost(Duration.ofSeconds(60)).until(() -> "sent".equals(deliveryOf(made).path("status").asString()));
      assertThat(deliveryOf(made).get("attempts").asInt()).isEqualTo(2);
      assertThat(deliveryOf(made).get("answerCode").asInt()).isEqualTo(200);
      assertThat(delivery.get("id").asString()).isEqualTo(body.get("id").asString());
    }
  }

  @Test
  void a410DisablesTheWebhookAndAnother4xxDropsTheDeliveryWithItsReason() throws Exception {
    try (Receiver gone = Receiver.answering(410); Receiver refusing = Receiver.answering(400)) {
      String product = unique("gone");
      Http.Response revoked = make(gone.url("/services/T0/B0/x"), "slack", product);
      Http.Response strict = make(refusing.url("/hook"), "json", product);

      silent(product, "lab-2");

      await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(deliveryOf(revoked).path("status").asString())
          && "failed".equals(deliveryOf(strict).path("status").asString()));
      JsonNode disabled = http().getWithToken("/api/v1/webhooks/" + revoked.json().get("id").asLong(), ADMIN_TOKEN)
          .json();
      assertThat(disabled.get("disabledAt").isNull()).as("disabled by the 410").isFalse();
      assertThat(disabled.get("url").asString()).as("a Slack URL is a credential").endsWith("/…")
          .doesNotContain("T0/B0");
      assertThat(deliveryOf(strict).get("lastError").asString()).startsWith("dropped: HTTP 400");
      assertThat(deliveryOf(strict).get("answerCode").asInt()).isEqualTo(400);
      assertThat(refusing.requests()).as("a 400 is not retried").hasSize(1);

      silent(product, "lab-3");
      await().atMost(Duration.ofSeconds(30)).until(() -> refusing.requests().size() == 2);
      assertThat(gone.requests()).as("nothing more to a disabled webhook").hasSize(1);
      assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE webhook_id = ?")
          .param(revoked.json().get("id").asLong()).query(Long.class).single()).isEqualTo(1);
    }
  }

  @Test
  void twoServersDeliverEachEventOnceToEachWebhook() throws Exception {
    try (Receiver receiver = Receiver.answering(); ConfigurableApplicationContext b =
        TwoInstancesExactlyOnceTest.secondServer(postgres)) {
      String product = unique("cygwin");
      make(receiver.url("/a"), "json", product);
      make(receiver.url("/b"), "slack", product);
      AlertService alertsB = b.getBean(AlertService.class);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<Integer>> queued = new ArrayList<>();
      for (int i = 0; i < 20; i++) { // each event published through both servers at once
        for (AlertService server : List.of(alerts, alertsB)) {
          String machine = "lab-" + i;
          queued.add(pool.submit(() -> server.publish(event(product, machine))));
        }
      }
      int rows = 0;
      for (Future<Integer> f : queued) {
        rows += f.get();
      }
      pool.shutdown();
      assertThat(rows).as("one row per event and webhook, whichever server queued it").isEqualTo(40);

      List<Http> servers = List.of(http(), new Http("http://localhost:" + b.getEnvironment()
          .getProperty("local.server.port")));
      long summary = 0;
      for (int i = 0; i < 3; i++) {
        upload(servers.get(i % 2), Seed003.run(product, "xp-" + i, "1.5.19-4", 18, 1));
        summary = upload(servers.get(i % 2), Seed003.run(product, "xp-" + i, "1.5.24-2", 48, 3000))
            .get("summaries").get(0).get("id").asLong();
      }
      jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?")
          .param("summary.opened:" + summary).update(); // settled: both servers' senders race for the rows

      await().atMost(Duration.ofSeconds(60)).until(() -> receiver.requests().size() >= 42);
      alerts.publish(event(product, "lab-0")); // the same event again adds nothing
      b.getBean(OutboxSender.class).drain();
      assertThat(receiver.requests()).hasSize(42);
      List<String> ids = receiver.requests().stream().map(r -> r.header("X-Perftrack-Delivery")).toList();
      assertThat(ids).doesNotHaveDuplicates();
      List<Receiver.Request> summaries = receiver.requests().stream()
          .filter(r -> "summary.opened".equals(r.header("X-Perftrack-Event"))).toList();
      assertThat(summaries).hasSize(2);
      JsonNode json = summaries.stream().filter(r -> r.path().equals("/a")).findFirst().orElseThrow().json();
      assertThat(json.get("summary").get("members")).hasSize(3);
      assertThat(json.get("summary").get("url").asString()).isEqualTo(PUBLIC_URL + "/summaries/" + summary);
      assertThat(jdbc.sql("SELECT count(DISTINCT sent_by) FROM alert_outbox WHERE kind = 'webhook' AND payload ->> "
          + "'product' = ?").param(product).query(Long.class).single()).as("both servers sent").isEqualTo(2);
    }
  }

  private AlertService.Event event(String product, String machine) {
    return new AlertService.Event("agent.silent", "silent." + product + "." + machine, product, machine, null,
        "Agent " + machine + " (" + product + ") is silent", "/lab", Map.of("agent", Map.of("machine", machine)));
  }

  private void silent(String product, String machine) {
    assertThat(alerts.publish(event(product, machine))).isPositive();
  }

  private Http.Response make(String url, String kind, String product) {
    Http.Response r = http().postJson("/api/v1/webhooks", json(Map.of("url", url, "kind", kind, "product", product)),
        ADMIN_TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r;
  }

  private JsonNode deliveryOf(Http.Response made) {
    JsonNode d = http().getWithToken("/api/v1/webhooks/" + made.json().get("id").asLong(), ADMIN_TOKEN).json()
        .get("deliveries");
    return d.isEmpty() ? org.perftrack.server.db.Json.MAPPER.createObjectNode() : d.get(0);
  }

  private static JsonNode upload(Http server, RunUpload run) {
    Http.Response r = server.postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  /** The receiver's side of the documented scheme: HMAC-SHA256(secret, t + "." + body), t within 5 minutes. */
  static boolean verifies(String secret, String header, byte[] body) throws Exception {
    String t = header.replaceFirst("^t=(\\d+),v1=[0-9a-f]+$", "$1");
    String v1 = header.replaceFirst("^t=\\d+,v1=([0-9a-f]+)$", "$1");
    if (Math.abs(Instant.now().getEpochSecond() - Long.parseLong(t)) > 300) {
      return false;
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
    return java.security.MessageDigest.isEqual(HexFormat.of().formatHex(mac.doFinal(body)).getBytes(
        StandardCharsets.US_ASCII), v1.getBytes(StandardCharsets.US_ASCII));
  }
}
