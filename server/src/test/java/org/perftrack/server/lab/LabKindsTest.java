package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Agents take the kinds of job they name when they register (an agent that names none takes timing jobs only), a
 * planned job reaches the agent with its plan, and the queue's one fairness rule lets every reason take its turn.
 */
class LabKindsTest extends IntegrationTest {

  @Autowired
  private Jobs jobs;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  private Http.Response register(List<String> kinds, String... targets) {
    return http().postJson("/api/v1/lab/agents", json(new LabApi.Registration(product, machine, "test", 1,
        List.of(targets), kinds)), TOKEN);
  }

  private JsonNode claim(long agent) {
    Http.Response r = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN);
    assertThat(r.status()).as(r.body()).isIn(200, 204);
    return r.status() == 204 ? null : r.json();
  }

  private static List<PlanEntry> plan(String benchmark, String... versions) {
    return List.of(new PlanEntry(benchmark, "time-per-op", List.of(versions)));
  }

  @Test
  void anAgentThatNamesNoKindsGetsTimingJobsOnlyAndOneThatNamesConfirmGetsThePlan() {
    jobs.enqueue(product, machine, "confirm", List.of(new PlanEntry("write-64b", "time-per-op",
        List.of("1.5.21-1", "1.5.20-1", "1.5.22-1")), new PlanEntry("fork", "time-per-op", List.of("1.5.21-1"))),
        "test");
    jobs.enqueue(product, machine, "profile", plan("fork", "1.5.20-1", "1.5.22-1"), "test");
    Http.Response older = register(null, "1.5.20-1", "1.5.21-1", "1.5.22-1");
    assertThat(older.status()).as(older.body()).isEqualTo(200);
    long agent = older.json().get("id").asLong();
    assertThat(claim(agent)).as("an older agent knows neither confirm nor profile jobs").isNull();

    assertThat(register(List.of("timing", "confirm"), "1.5.20-1", "1.5.21-1", "1.5.22-1").status()).isEqualTo(200);
    JsonNode confirm = claim(agent);
    assertThat(confirm.get("reason").asString()).isEqualTo("confirm");
    assertThat(confirm.get("versions").valueStream().map(JsonNode::asString))
        .as("the plan's versions in version order").containsExactly("1.5.20-1", "1.5.21-1", "1.5.22-1");
    assertThat(confirm.get("benchmarks").valueStream().map(JsonNode::asString)).containsExactly("write-64b", "fork");
    JsonNode entry = confirm.get("plan").get(0);
    assertThat(entry.get("benchmark").asString()).isEqualTo("write-64b");
    assertThat(entry.get("metric").asString()).isEqualTo("time-per-op");
    assertThat(entry.get("versions").valueStream().map(JsonNode::asString))
        .containsExactly("1.5.21-1", "1.5.20-1", "1.5.22-1");
    assertThat(confirm.get("plan").get(1).get("versions").valueStream().map(JsonNode::asString))
        .containsExactly("1.5.21-1");
    assertThat(claim(agent)).as("profile jobs go to agents that take them").isNull();

    Http.Response listed = http().get("/api/v1/lab");
    assertThat(listed.body()).contains("confirm write-64b between 1.5.20-1 and 1.5.22-1, fork at 1.5.21-1");
  }

  @Test
  void anUnknownKindIsRefusedNamingItsPlace() {
    Http.Response r = register(List.of("timing", "tracing"), "1.0");
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("kinds[1]", "timing, confirm, profile");
    assertThat(jdbc.sql("SELECT count(*) FROM lab_agent WHERE machine = ?").param(machine).query(Long.class).single())
        .as("nothing stored").isZero();
  }

  @Test
  void everyReasonTakesItsTurnSoNoKindStarvesAnother() {
    long agent = register(List.of("timing", "confirm", "profile"), "2.0", "2.1").json().get("id").asLong();
    List<Long> ids = new ArrayList<>();
    for (String reason : List.of("manual", "manual", "manual", "profile", "profile", "confirm", "bisection")) {
      ids.add(reason.equals("manual") || reason.equals("bisection")
          ? jobs.enqueue(product, machine, List.of("2.0", "2.1"), null, reason, null, "test").id()
          : jobs.enqueue(product, machine, reason, plan("fork", "2.0", "2.1"), "test").id());
    }
    List<String> order = new ArrayList<>();
    for (JsonNode job = claim(agent); job != null; job = claim(agent)) {
      order.add(job.get("reason").asString());
    }
    assertThat(order).as("the oldest job of the reason served least recently (never served first)")
        .containsExactly("manual", "profile", "confirm", "bisection", "manual", "profile", "manual");
  }
}
