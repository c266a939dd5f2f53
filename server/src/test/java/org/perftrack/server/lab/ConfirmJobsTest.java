package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.alerts.Mailbox;
import org.perftrack.server.alerts.Receiver;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Confirm jobs through HTTP on the real server and PostgreSQL, the test playing the agent: unsure claims (steps
 * placed only within two versions, the change-point model unsure where) on a machine whose agent takes confirm jobs are re-measured at their suspect
 * versions, one job per machine and round holding an entry per series, and the claims end placed.
 */
class ConfirmJobsTest extends IntegrationTest {

  private static final long ANSWER_SEED = 1;

  @Autowired
  private ApplicationContext app;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");
  private static final List<String> BENCHMARKS = List.of("write-64b", "read-64b", "fork");
  private static final List<String> VERSIONS = IntStream.range(0, 24).mapToObj(v -> "1." + v).toList();

  /** Three series, each the 10 % step at 1.12 in 6 % noise that detection places only within 1.11 .. 1.12. */
  private List<Long> unsureClaims() {
    List<RunUpload> ranged = Fixtures.rangedStep(product, machine);
    for (RunUpload run : ranged) {
      List<RunUpload.ResultUpload> results = BENCHMARKS.stream().map(b -> {
        RunUpload.ResultUpload r = run.results().get(0);
        return new RunUpload.ResultUpload(b, r.metric(), r.unit(), r.direction(), r.samples());
      }).toList();
      Http.Response r = http().postJson("/api/v1/runs", json(new RunUpload(run.id(), product, run.version(),
          run.machine(), run.suite(), null, null, null, run.attributes(), results, List.of())), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
    JsonNode list = http().get("/api/v1/regressions?product=" + product).json();
    List<Long> ids = new ArrayList<>();
    list.valueStream().forEach(n -> {
      assertThat(n.get("firstSuspect").asString()).as(n.toString()).isEqualTo("1.11");
      assertThat(n.get("lastSuspect").asString()).isEqualTo("1.12");
      ids.add(n.get("id").asLong());
    });
    assertThat(ids).hasSize(3);
    return ids;
  }

  private long register(List<String> kinds, List<String> targets) {
    Http.Response r = http().postJson("/api/v1/lab/agents", json(new LabApi.Registration(product, machine, "test", 1,
        targets, kinds)), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("id").asLong();
  }

  private JsonNode claim(long agent) {
    Http.Response r = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN);
    assertThat(r.status()).as(r.body()).isIn(200, 204);
    return r.status() == 204 ? null : r.json();
  }

  /**
   * The agent's answer: one run per version of the plan, in one session, each planned benchmark at its level. Its
   * samples come from a fixed seed, never from ids the shared database hands out, so the suite and this class alone
   * answer the same.
   */
  private void answer(JsonNode job) {
    String batch = UUID.randomUUID().toString();
    Random random = new Random(ANSWER_SEED);
    List<String> versions = job.get("versions").valueStream().map(JsonNode::asString).toList();
    List<String> ids = new ArrayList<>();
    for (String v : versions) {
      double level = VERSIONS.indexOf(v) >= 12 ? 110 : 100;
      List<RunUpload.ResultUpload> results = new ArrayList<>();
      for (JsonNode e : job.get("plan")) {
        if (e.get("versions").valueStream().anyMatch(x -> x.asString().equals(v))) {
          results.add(new RunUpload.ResultUpload(e.get("benchmark").asString(), e.get("metric").asString(), "us",
              RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, level)));
        }
      }
      RunUpload r = Fixtures.run(product, v, machine);
      RunUpload run = new RunUpload(r.id(), product, v, r.machine(), r.suite(), batch, null, null, r.attributes(),
          results, List.of()).withBatchSize(versions.size());
      Http.Response created = http().postJson("/api/v1/runs", json(run), TOKEN);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      ids.add(run.id());
    }
    Http.Response done = http().postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/finish",
        "{\"lease\": \"" + job.get("lease").asString() + "\", \"runIds\": " + json(ids) + "}", TOKEN);
    assertThat(done.status()).as(done.body()).isEqualTo(200);
  }

  private JsonNode regression(long id) {
    return http().get("/api/v1/regressions/" + id).json();
  }

  @Test
  void aFloodOfUnsureSeriesIsOneJobPerMachineAndRoundAndTheRoundPlacesEachStep() {
    try (Receiver receiver = Receiver.answering(200)) {
      Http.Response hook = http().postJson("/api/v1/webhooks", json(Map.of("url", receiver.url("/placed"), "kind",
          "json", "product", product, "events", List.of("regression.placed"))), ADMIN_TOKEN);
      assertThat(hook.status()).as(hook.body()).isEqualTo(201);
      List<Long> claims = placesEachStep();
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(receiver.requests())
          .as("one regression.placed delivery per placed step, carrying the regression")
          .extracting(r -> r.json().get("event").asString() + " " + r.json().get("regression").get("id").asLong()
              + " " + r.json().get("regression").get("version").asString())
          .containsExactlyInAnyOrderElementsOf(claims.stream().map(id -> "regression.placed " + id + " 1.12").toList()));
    }
  }

  private List<Long> placesEachStep() {
    List<Long> claims = unsureClaims();
    long agent = register(List.of("timing", "confirm"), VERSIONS);
    LabTicks.tick(app);
    LabTicks.tick(app);
    JsonNode job = await().atMost(Duration.ofSeconds(30)).until(() -> claim(agent), java.util.Objects::nonNull);
    assertThat(job.get("reason").asString()).isEqualTo("confirm");
    assertThat(job.get("plan")).as("one entry per unsure series").hasSize(3);
    List<String> suspects = job.get("plan").get(0).get("versions").valueStream().map(JsonNode::asString).toList();
    assertThat(suspects).as("the model's suspects: the step's version and the one before it, at most 8")
        .contains("1.11", "1.12").hasSizeLessThanOrEqualTo(8);
    for (JsonNode e : job.get("plan")) {
      assertThat(e.get("versions").valueStream().map(JsonNode::asString)).containsExactlyElementsOf(suspects);
    }
    assertThat(job.get("versions").valueStream().map(JsonNode::asString)).containsExactlyElementsOf(suspects);
    assertThat(claim(agent)).as("one job per machine and round").isNull();
    String range = suspects.get(0) + ".." + suspects.get(suspects.size() - 1);
    assertThat(http().page("/lab").text())
        .contains("confirm write-64b between " + suspects.get(0) + " and " + suspects.get(suspects.size() - 1));

    answer(job);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      LabTicks.tick(app);
      for (long id : claims) {
        JsonNode r = regression(id);
        assertThat(r.get("version").asString()).as(r.toString()).isEqualTo("1.12");
        assertThat(r.get("firstSuspect").asString()).isEqualTo("1.12");
        assertThat(r.get("history").valueStream().map(h -> h.get("action").asString() + ": " + h.get("reason").asString()))
            .contains("placed: placed at 1.12 after 1 re-run of " + range);
      }
    });
    assertThat(http().page("/regressions/" + claims.get(0)).text())
        .contains("placed at 1.12 after 1 re-run of " + range);
    assertThat(http().page("/lab").text()).contains("placed at 1.12 after 1 re-run of " + range);
    LabTicks.tick(app);
    assertThat(claim(agent)).as("settled: no further round").isNull();
    return claims;
  }

  /**
   * The mail announcing unsure claims on a machine whose agent takes confirm jobs (here the summary's, as uploads
   * are announced) waits for the confirmation (perftrack.lab.confirm.mail-hold, 15 min, beyond the summary's own
   * settle); when the round has placed the steps it names them where they were placed, not the range the first runs
   * left, and goes out once.
   */
  @Test
  void aMailAboutUnsureClaimsWaitsForTheRoundAndSaysWhereTheStepsWerePlaced() {
    String dev = unique("dev") + "@example.org";
    Http.Response sub = http().postJson("/api/v1/subscriptions", json(Map.of("email", dev, "product", product)),
        ADMIN_TOKEN);
    assertThat(sub.status()).as(sub.body()).isEqualTo(201);
    try (Mailbox mailbox = Mailbox.started(MAIL_PORT)) {
      long agent = register(List.of("timing", "confirm"), VERSIONS);
      List<Long> claims = unsureClaims();
      String held = "SELECT count(*) FROM alert_outbox WHERE recipient = ? AND status = 'pending'"
          + " AND next_attempt_at > now() + interval '14 minutes'";
      assertThat(jdbc.sql(held).param(dev).query(Long.class).single()).as("held for the confirmation").isEqualTo(1);

      LabTicks.tick(app);
      JsonNode job = await().atMost(Duration.ofSeconds(30)).until(() -> claim(agent), java.util.Objects::nonNull);
      answer(job);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        LabTicks.tick(app);
        assertThat(claims).allSatisfy(id -> assertThat(regression(id).get("firstSuspect").asString()).isEqualTo("1.12"));
      });
      // the summary's own settle (1 h in tests) passes
      jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE recipient = ? AND status = 'pending'").param(dev)
          .update();
      String text = Mailbox.part(mailbox.awaitMessages(dev, 1, Duration.ofSeconds(30)).get(0), "text/plain");
      assertThat(text).contains("fork", "1.12").doesNotContain("between 1.11 and 1.12");
      assertThat(mailbox.awaitMessages(dev, 1, Duration.ofSeconds(1))).as("once").hasSize(1);
    }
  }

  @Test
  void aConfirmJobWhoseAgentGoesAwayReturnsToTheQueueAndNoSecondJobIsMade() {
    List<Long> claims = unsureClaims();
    long agent = register(List.of("timing", "confirm"), VERSIONS);
    LabTicks.tick(app);
    JsonNode job = await().atMost(Duration.ofSeconds(30)).until(() -> claim(agent), java.util.Objects::nonNull);
    assertThat(job.get("reason").asString()).isEqualTo("confirm");

    // the agent stops sending heartbeats: its lease runs out and the lab's next ticks put the job back
    jdbc.sql("UPDATE lab_job SET lease_until = now() - interval '1 minute' WHERE id = ?").param(job.get("id").asLong())
        .update();
    LabTicks.tick(app);
    LabTicks.tick(app);
    assertThat(jdbc.sql("SELECT status FROM lab_job WHERE id = ?").param(job.get("id").asLong()).query(String.class)
        .single()).isEqualTo("queued");
    assertThat(jdbc.sql("SELECT count(*) FROM lab_job WHERE machine = ? AND reason = 'confirm'").param(machine)
        .query(Long.class).single()).as("the same job, not a second one").isEqualTo(1);
    long back = register(List.of("timing", "confirm"), VERSIONS);
    JsonNode again = claim(back);
    assertThat(again.get("id").asLong()).isEqualTo(job.get("id").asLong());
    assertThat(again.get("plan")).hasSize(claims.size());
    assertThat(claim(back)).as("one job per machine and round").isNull();
  }

  @Test
  void aConfirmationThatCannotRunSaysSoAndTheClaimStaysAsItWas() {
    List<Long> claims = unsureClaims();
    long agent = register(List.of("confirm"), VERSIONS.stream().filter(v -> !v.equals("1.11")).toList());
    LabTicks.tick(app);
    LabTicks.tick(app);
    assertThat(claim(agent)).isNull();
    assertThat(jdbc.sql("SELECT outcome FROM confirmation WHERE regression_id = ?").param(claims.get(0))
        .query(String.class).single()).isEqualTo("cannot confirm: the agent of " + machine + " does not offer 1.11");
    assertThat(http().page("/lab").text()).contains("cannot confirm: the agent of " + machine + " does not offer 1.11");
    JsonNode r = regression(claims.get(0));
    assertThat(r.get("firstSuspect").asString()).isEqualTo("1.11");
    assertThat(r.get("lastSuspect").asString()).isEqualTo("1.12");
  }
}
