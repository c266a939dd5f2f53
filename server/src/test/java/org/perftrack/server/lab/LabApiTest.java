package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The lab API through HTTP on the real server and PostgreSQL, with the test playing the agent: the
 * job queue's leases and fences, and a whole bisection driven by uploads of made-up measurements.
 */
class LabApiTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  private long register(String... targets) {
    Http.Response r = http().postJson("/api/v1/lab/agents", json(new LabApi.Registration(product, machine,
        "test", 1, List.of(targets))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("id").asLong();
  }

  private JsonNode claim(long agent) {
    Http.Response r = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN);
    assertThat(r.status()).as(r.body()).isIn(200, 204);
    return r.status() == 204 ? null : r.json();
  }

  private Http.Response finish(JsonNode job, String lease, List<String> runIds) {
    return http().postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/finish",
        "{\"lease\": \"" + lease + "\", \"runIds\": " + json(runIds) + "}", TOKEN);
  }

  @Test
  void aJobIsHandedOutOnceAndFinishedOnlyUnderItsLease() {
    long agent = register("1.0", "1.1");
    assertThat(http().postJson("/api/v1/lab/jobs",
        "{\"product\": \"" + product + "\", \"machine\": \"" + machine + "\"}", TOKEN).status())
        .as("an agent's upload token asks for no work").isEqualTo(403);
    Http.Response queued = http().postJson("/api/v1/lab/jobs",
        "{\"product\": \"" + product + "\", \"machine\": \"" + machine + "\"}", ADMIN_TOKEN);
    assertThat(queued.status()).as(queued.body()).isEqualTo(200);

    JsonNode job = claim(agent);
    assertThat(job.get("versions").valueStream().map(JsonNode::asString)).containsExactly("1.0", "1.1");
    assertThat(claim(agent)).as("nothing else queued").isNull();
    assertThat(finish(job, UUID.randomUUID().toString(), List.of(UUID.randomUUID().toString())).status())
        .isEqualTo(409);

    // the agent restarts: its job returns to the queue at once, under a new lease
    register("1.0", "1.1");
    JsonNode again = claim(agent);
    assertThat(again.get("id").asLong()).isEqualTo(job.get("id").asLong());
    assertThat(finish(job, job.get("lease").asString(), List.of(UUID.randomUUID().toString())).status())
        .as("the old lease is fenced off").isEqualTo(409);
    Http.Response done = finish(again, again.get("lease").asString(), List.of(UUID.randomUUID().toString()));
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(done.json().get("attempts").asInt()).isEqualTo(2);
    assertThat(finish(again, again.get("lease").asString(), List.of(UUID.randomUUID().toString())).status())
        .as("finished once").isEqualTo(409);
  }

  @Test
  void aScheduleQueuesARunOfEveryTargetAndAVersionNewerThanAnyMeasuredIsMeasuredAtOnce() {
    FakeAgent fake = new FakeAgent(http(), TOKEN, product, machine);
    fake.upload(UUID.randomUUID().toString(), "3.0", 10);
    long agent = fake.register("3.0", "3.1");
    JsonNode fresh = claim(agent);
    assertThat(fresh.get("reason").asString()).isEqualTo("new-version");
    assertThat(fresh.get("versions").valueStream().map(JsonNode::asString)).containsExactly("3.0", "3.1");
    assertThat(finish(fresh, fresh.get("lease").asString(), List.of(UUID.randomUUID().toString())).status())
        .isEqualTo(200);
    register("3.0", "3.1");
    assertThat(claim(agent)).as("a new version is queued once").isNull();

    Http.Response schedule = http().postJson("/api/v1/lab/schedules",
        "{\"product\": \"" + product + "\", \"machine\": \"" + machine + "\", \"cron\": \"* * * * * *\"}", ADMIN_TOKEN);
    assertThat(schedule.status()).as(schedule.body()).isEqualTo(200);
    JsonNode scheduled = org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
        .until(() -> claim(agent), java.util.Objects::nonNull);
    assertThat(scheduled.get("reason").asString()).isEqualTo("schedule");
    assertThat(scheduled.get("versions").valueStream().map(JsonNode::asString)).containsExactly("3.0", "3.1");
    assertThat(http().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port
        + "/api/v1/lab/schedules/" + schedule.json().get("id").asLong())).header("Authorization", "Bearer " + ADMIN_TOKEN)
        .DELETE()).status()).isEqualTo(204);
  }

  @Test
  void badRequestsNameTheField() {
    Http.Response noTargets = http().postJson("/api/v1/lab/agents",
        "{\"product\": \"p\", \"machine\": \"m\"}", TOKEN);
    assertThat(noTargets.status()).isEqualTo(400);
    assertThat(noTargets.body()).contains("targets");
    Http.Response noToken = http().postJson("/api/v1/lab/agents",
        json(new LabApi.Registration("p", "m", "t", 60, List.of("1"))), null);
    assertThat(noToken.status()).isEqualTo(401);
    Http.Response cron = http().postJson("/api/v1/lab/schedules",
        "{\"product\": \"p\", \"cron\": \"every night\"}", ADMIN_TOKEN);
    assertThat(cron.status()).isEqualTo(400);
    assertThat(cron.body()).contains("cron");
  }

  @Test
  void failingJobsMailTheRecipientsOnceAndTheJobGivesUpAfterItsAttempts() {
    long agent = register("2.0");
    http().postJson("/api/v1/lab/jobs", "{\"product\": \"" + product + "\", \"machine\": \"" + machine + "\"}", ADMIN_TOKEN);
    for (int i = 0; i < 3; i++) {
      JsonNode job = claim(agent);
      Http.Response r = http().postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/fail",
          "{\"lease\": \"" + job.get("lease").asString() + "\", \"error\": \"gcc: not found\"}", TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(r.json().get("status").asString()).isEqualTo(i < 2 ? "queued" : "failed");
    }
    assertThat(claim(agent)).isNull();
    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind = 'lab' AND subject LIKE ?")
        .param("%" + machine + " failed 3 jobs in a row%").query(Long.class).single()).isEqualTo(1);
  }

  /**
   * The agent offers eight versions; 2.6 made "spawn" three times slower. The test measures each round's
   * three versions as an agent would (one batch) and the server narrows the range: 2.4 good, 2.6 bad,
   * 2.5 at first half way (ambiguous: measured again, not counted), then good.
   */
  @Test
  void bisectsARegressionToTheFirstBadVersionInAtMostThreeRoundsRemeasuringAnAmbiguousOne() {
    FakeAgent fake = new FakeAgent(http(), TOKEN, product, machine);
    fake.upload(batch(), "2.1", 10);
    var created = http().postJson("/api/v1/runs", json(run(batch(), "2.8", 30)), TOKEN);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().get("regressions")).hasSize(1);
    long regression = created.json().get("regressions").get(0).get("id").asLong();

    fake.register("2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8");
    boolean[] ambiguousOnce = {false};
    List<String> middles = fake.bisect(regression, v -> {
      if (v.equals("2.5") && !ambiguousOnce[0]) {
        ambiguousOnce[0] = true;
        return Math.sqrt(10 * 30); // half way on the log scale
      }
      return v.compareTo("2.6") >= 0 ? 30.0 : 10.0;
    });

    assertThat(middles).containsExactly("2.4", "2.6", "2.5", "2.5");
    JsonNode b = state(regression);
    assertThat(b.get("firstBad").asString()).isEqualTo("2.6");
    assertThat(b.get("lastGood").asString()).isEqualTo("2.5");
    assertThat(b.get("rounds").asInt()).isEqualTo(3);
    assertThat(jdbc.sql("SELECT count(*) FROM alert_outbox WHERE kind = 'lab' AND subject LIKE ?")
        .param("%" + machine + ": first bad version 2.6 (last good 2.5), 3 rounds").query(Long.class).single())
        .isEqualTo(1);
    Http.Response page = http().page("/regressions/" + regression);
    assertThat(page.body()).contains("first bad version 2.6 (last good 2.5), 3 rounds");
    assertThat(http().page("/lab").text()).contains(machine, "first bad version 2.6");
  }

  private JsonNode state(long regression) {
    Http.Response r = http().get("/api/v1/regressions/" + regression + "/bisection");
    return r.status() == 200 ? r.json() : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
  }

  private static String batch() {
    return UUID.randomUUID().toString();
  }

  private RunUpload run(String batch, String version, double level) {
    RunUpload r = Fixtures.run(product, version, machine,
        result("spawn", level * 0.99, level * 1.01, level, level * 0.995, level * 1.005));
    return new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }

}
