package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.security.ApiTokens;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * An agent belongs to the token that registered it, the lab has caps and pages, its names follow the upload
 * names' rules, and anonymous readers do not see who asked for work or what failed (issue 26 items 3, 4, 9-11).
 */
class LabTokensAndLimitsTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  @Autowired
  private Agents agents;
  @Autowired
  private Jobs jobs;
  @Autowired
  private LabMail mail;
  @Autowired
  private LabProperties props;
  @Autowired
  private ApiTokens tokens;

  private Http.Response register(String token, String machine, List<String> targets) {
    return http().postJson("/api/v1/lab/agents",
        json(new LabApi.Registration(product, machine, "test", 60, targets)), token);
  }

  private JsonNode queueAndClaim(String token, long agent) {
    Http.Response queued = http().postJson("/api/v1/lab/jobs",
        "{\"product\": \"" + product + "\", \"machine\": \"" + machine + "\"}", ADMIN_TOKEN);
    assertThat(queued.status()).as(queued.body()).isEqualTo(200);
    Http.Response claimed = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", token);
    assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
    return claimed.json();
  }

  private Http.Response finish(String token, JsonNode job, List<String> runIds) {
    return http().postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/finish",
        "{\"lease\": \"" + job.get("lease").asString() + "\", \"runIds\": " + json(runIds) + "}", token);
  }

  @Test
  void anotherTokenCannotTakeOverAnAgentNorReportItsJobs() {
    String mine = token(Scope.UPLOAD);
    String stranger = token(Scope.UPLOAD);
    Http.Response registered = register(mine, machine, List.of("1.0", "1.1"));
    assertThat(registered.status()).as(registered.body()).isEqualTo(200);
    long agent = registered.json().get("id").asLong();

    Http.Response takeover = register(stranger, machine, List.of("9.9"));
    assertThat(takeover.status()).as(takeover.body()).isEqualTo(409);
    assertThat(takeover.body()).contains("another API token");
    assertThat(agents.find(agent).orElseThrow().targets()).as("targets untouched").containsExactly("1.0", "1.1");
    assertThat(http().postJson("/api/v1/lab/agents/" + agent + "/heartbeat",
        "{\"targets\": [\"9.9\"]}", stranger).status()).isEqualTo(404);
    assertThat(http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", stranger).status()).isEqualTo(404);

    JsonNode job = queueAndClaim(mine, agent);
    String lease = job.get("lease").asString();
    long id = job.get("id").asLong();
    assertThat(finish(stranger, job, List.of(UUID.randomUUID().toString())).status()).isEqualTo(404);
    assertThat(http().postJson("/api/v1/lab/jobs/" + id + "/fail", "{\"lease\": \"" + lease + "\"}", stranger)
        .status()).isEqualTo(404);
    assertThat(http().postJson("/api/v1/lab/jobs/" + id + "/release", "{\"lease\": \"" + lease + "\"}", stranger)
        .status()).isEqualTo(404);
    assertThat(jobs.find(id).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);

    // a run of another product (or machine, or version) is not this job's
    var foreign = Fixtures.run(unique("other"), "1.0", machine, result("spawn", 1, 2, 3));
    assertThat(http().postJson("/api/v1/runs", json(foreign), mine).status()).isEqualTo(201);
    var otherVersion = Fixtures.run(product, "7.0", machine, result("spawn", 1, 2, 3));
    assertThat(http().postJson("/api/v1/runs", json(otherVersion), mine).status()).isEqualTo(201);
    Http.Response forged = finish(mine, job, List.of(UUID.randomUUID().toString(), foreign.id()));
    assertThat(forged.status()).as(forged.body()).isEqualTo(400);
    assertThat(forged.json().get("fields").get(0).get("field").asString()).isEqualTo("runIds[1]");
    assertThat(finish(mine, job, List.of(otherVersion.id())).status()).isEqualTo(400);

    var own = Fixtures.run(product, "1.1", machine, result("spawn", 1, 2, 3));
    Http.Response done = finish(mine, job, List.of(own.id()));
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(jobs.runsArrived(jobs.find(id).orElseThrow())).as("not uploaded yet").isFalse();
    assertThat(http().postJson("/api/v1/runs", json(own), mine).status()).isEqualTo(201);
    assertThat(jobs.runsArrived(jobs.find(id).orElseThrow())).isTrue();
  }

  @Test
  void aRevokedTokensAgentMayBeRegisteredWithItsSuccessor() {
    var old = tokens.create("old", "test", java.util.EnumSet.of(Scope.UPLOAD));
    String next = token(Scope.UPLOAD);
    long agent = register(old.token(), machine, List.of("1.0")).json().get("id").asLong();
    assertThat(register(next, machine, List.of("1.0")).status()).isEqualTo(409);

    tokens.revoke(old.id());

    Http.Response again = register(next, machine, List.of("1.0", "1.2"));
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json().get("id").asLong()).isEqualTo(agent);
    assertThat(http().postJson("/api/v1/lab/agents/" + agent + "/heartbeat", "{}", next).status()).isEqualTo(200);
  }

  @Test
  void anAdminRemovesAnAgentAndItsMachineMayBeRegisteredAgain() {
    String mine = token(Scope.UPLOAD);
    long agent = register(mine, machine, List.of("1.0")).json().get("id").asLong();
    JsonNode job = queueAndClaim(mine, agent);
    java.net.http.HttpRequest.Builder delete = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create("http://localhost:" + port + "/api/v1/lab/agents/" + agent)).DELETE();

    assertThat(http().send(delete.copy().header("Authorization", "Bearer " + mine)).status())
        .as("an upload token does not remove agents").isEqualTo(403);
    assertThat(http().send(delete.copy().header("Authorization", "Bearer " + ADMIN_TOKEN)).status()).isEqualTo(200);

    assertThat(agents.find(agent)).isEmpty();
    assertThat(jobs.find(job.get("id").asLong()).orElseThrow().status()).as("its job back in the queue")
        .isEqualTo(JobStatus.QUEUED);
    assertThat(register(token(Scope.UPLOAD), machine, List.of("1.0")).status()).isEqualTo(200);
    assertThat(http().send(delete.copy().header("Authorization", "Bearer " + ADMIN_TOKEN)).status()).isEqualTo(404);
  }

  @Test
  void agentsAreCappedPerTokenAndPerProductAndTargetsPerAgent() {
    LabProperties small = new LabProperties(props.silentAfter(), props.failuresToMail(), props.lease(),
        props.maxAttempts(), props.tick(), false, 2, 3, 5, props.pageSize());
    Lab lab = new Lab(agents, jobs, mail, small, jdbc, event -> { });
    long one = tokens.create("one", "test", java.util.EnumSet.of(Scope.UPLOAD)).id();
    long two = tokens.create("two", "test", java.util.EnumSet.of(Scope.UPLOAD)).id();
    lab.register(product, "m1", "t", 60, List.of("1"), null, one);
    lab.register(product, "m2", "t", 60, List.of("1"), null, one);
    lab.register(product, "m2", "t", 60, List.of("1", "2"), null, one); // registering again is no new agent

    assertThatThrownBy(() -> lab.register(product, "m3", "t", 60, List.of("1"), null, one))
        .isInstanceOf(Conflict.class).hasMessageContaining("max-agents-per-token");
    lab.register(product, "m3", "t", 60, List.of("1"), null, two);
    assertThatThrownBy(() -> lab.register(product, "m4", "t", 60, List.of("1"), null, two))
        .isInstanceOf(Conflict.class).hasMessageContaining("max-agents-per-product");

    List<String> tooMany = IntStream.rangeClosed(0, props.maxTargets()).mapToObj(i -> "1." + i).toList();
    Http.Response r = register(TOKEN, machine, tooMany);
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("targets", "max-targets");
  }

  @Test
  void theLabIsListedInPages() {
    String mine = token(Scope.UPLOAD);
    int size = props.pageSize();
    for (int i = 0; i <= size; i++) {
      assertThat(register(mine, machine + "-" + i, List.of("1.0")).status()).isEqualTo(200);
    }
    Http.Response first = http().get("/api/v1/lab");
    assertThat(first.json().get("agents")).hasSize(size);
    assertThat(first.json().get("agentCount").asLong()).isGreaterThan(size);
    assertThat(first.json().get("nextPage").asInt()).isEqualTo(1);
    Http.Response second = http().get("/api/v1/lab?page=1");
    assertThat(second.json().get("agents").size()).isBetween(1, size);
    assertThat(second.json().get("agents").get(0).get("id").asLong())
        .isNotIn(first.json().get("agents").valueStream().map(a -> a.get("id").asLong()).toList());
    assertThat(http().page("/lab?page=1").body()).contains("previous page");
  }

  @Test
  void labNamesFollowTheRulesOfUploadNames() {
    assertThat(register(TOKEN, machine + "\u202e", List.of("1.0")).json().get("fields").get(0).get("field").asString())
        .isEqualTo("machine");
    Http.Response spaced = register(TOKEN, machine, List.of("1.0", " 1.0"));
    assertThat(spaced.status()).isEqualTo(400);
    assertThat(spaced.json().get("fields").get(0).get("field").asString()).isEqualTo("targets[1]");
    Http.Response surrogate = http().postJson("/api/v1/lab/agents", "{\"product\": \"" + product
        + "\", \"machine\": \"" + machine + "\", \"targets\": [\"1.0\\ud800\"]}", TOKEN);
    assertThat(surrogate.status()).isEqualTo(400);
    assertThat(surrogate.body()).contains("lone surrogate U+D800");
    Http.Response schedule = http().postJson("/api/v1/lab/schedules",
        "{\"product\": \"" + product + "\\u200b\", \"cron\": \"0 0 2 * * *\"}", ADMIN_TOKEN);
    assertThat(schedule.status()).isEqualTo(400);
    assertThat(schedule.body()).contains("U+200B");
    assertThat(jdbc.sql("SELECT count(*) FROM lab_agent WHERE machine LIKE ?").param(machine + "%")
        .query(Long.class).single()).as("nothing stored").isZero();
  }

  @Test
  void aCronThatNeverFiresIsA400() {
    Http.Response r = http().postJson("/api/v1/lab/schedules",
        "{\"product\": \"" + product + "\", \"cron\": \"0 0 0 30 2 *\"}", ADMIN_TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("cron");
    assertThat(r.body()).contains("never fires");
  }

  @Test
  void anonymousReadersSeeNeitherTokenNamesNorFailureText() {
    long agent = register(TOKEN, machine, List.of("1.0")).json().get("id").asLong();
    JsonNode job = queueAndClaim(TOKEN, agent);
    http().postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/fail",
        "{\"lease\": \"" + job.get("lease").asString() + "\", \"error\": \"/home/secret-path/gcc: not found\"}", TOKEN);
    http().postJson("/api/v1/lab/schedules", "{\"product\": \"" + product + "\", \"cron\": \"0 0 2 * * *\"}",
        ADMIN_TOKEN);

    String anonymous = http().get("/api/v1/lab").body() + http().page("/lab").body();
    assertThat(anonymous).contains(LabView.HIDDEN).doesNotContain("secret-path", "token:", "test-admin");
    String reader = http().getWithToken("/api/v1/lab", token(Scope.READ)).body();
    assertThat(reader).contains("secret-path", "token:test-admin");
    assertThat(reader).doesNotContain(job.get("lease").asString());
  }

}
