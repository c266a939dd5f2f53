package org.perftrack.server.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.lab.ProfileJobs;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A regression's profile over HTTP on the real server: asked for (409 and nothing stored while no agent can, 202
 * once one can), the job reaching only an agent that takes profiles with its plan, the agent's profiles checked and
 * stored, the job finished with their ids, and the difference answered, on the page and downloadable.
 */
class ProfilesApiTest extends IntegrationTest {

  @Autowired
  private ProfileJobs profileJobs;

  private final String product = unique("cygwin");
  private final String machine = unique("lab");

  /** Two benchmarks three times slower from 1.0 to 2.0: two regressions of one pair. */
  private List<Long> twoRegressions() {
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine,
        result("spawn", 99, 101, 100, 100.5, 99.5), result("fork", 49, 51, 50, 50.5, 49.5))), TOKEN).status())
        .isEqualTo(201);
    Http.Response created = http().postJson("/api/v1/runs", json(run(product, "2.0", machine,
        result("spawn", 299, 301, 300, 300.5, 299.5), result("fork", 149, 151, 150, 150.5, 149.5))), TOKEN);
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(created.json().get("regressions")).hasSize(2);
    return created.json().get("regressions").valueStream().map(r -> r.get("id").asLong()).toList();
  }

  private long register(List<String> kinds) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("product", product);
    body.put("machine", machine);
    body.put("agentVersion", "test");
    body.put("heartbeatSeconds", 60);
    body.put("targets", List.of("1.0", "2.0"));
    body.put("kinds", kinds);
    Http.Response r = http().postJson("/api/v1/lab/agents", json(body), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("id").asLong();
  }

  private long jobs() {
    return jdbc.sql("SELECT count(*) FROM lab_job WHERE machine = ? AND reason = 'profile'").param(machine)
        .query(Long.class).single();
  }

  private static Map<String, Object> profile(long job, String version, String benchmark, double writes,
      double switches) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("job", job);
    p.put("version", version);
    p.put("benchmark", benchmark);
    p.put("operations", 10_000);
    p.put("syscalls", List.of(Map.of("name", "write", "callsPerOp", writes, "errorsPerOp", 0.0, "timeShare", 0.9),
        Map.of("name", "clone", "callsPerOp", 1.0, "errorsPerOp", 0.0, "timeShare", 0.1)));
    p.put("counters", List.of(Map.of("name", "voluntary-context-switches", "perOp", switches),
        Map.of("name", "user-cpu-us", "perOp", 3.0)));
    p.put("functions", List.of(Map.of("name", "main", "module", "spawn", "selfShare", 0.5)));
    p.put("missing", List.of());
    p.put("rawSyscalls", "% time     seconds  usecs/call     calls    errors syscall\n  90.0 0.1 1 " + writes
        + " write <script>\n");
    p.put("rawFunctions", null);
    return p;
  }

  @Test
  void aRegressionIsProfiledByTheAgentOfItsMachineAndTheDifferenceAnswered() {
    List<Long> regressions = twoRegressions();
    long spawn = regressions.get(0);
    String path = "/api/v1/regressions/" + spawn + "/profile";
    assertThat(http().get(path).json().get("status").asString()).isEqualTo("impossible");

    String triage = token(Scope.TRIAGE);
    Http.Response refused = http().postJson(path, "", triage);
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.json().get("state").asString()).isEqualTo("impossible");
    assertThat(refused.json().get("detail").asString()).contains("no lab agent runs " + product + " on " + machine);
    long agent = register(List.of("timing"));
    assertThat(http().postJson(path, "", triage).json().get("detail").asString())
        .contains("does not take profile jobs");
    assertThat(jobs()).as("nothing stored for good").isZero();

    register(List.of("timing", "profile"));
    Http.Response queued = http().postJson(path, "", triage);
    assertThat(queued.status()).as(queued.body()).isEqualTo(202);
    assertThat(queued.json().get("status").asString()).isEqualTo("queued");
    assertThat(http().postJson("/api/v1/regressions/" + regressions.get(1) + "/profile", "", triage).status())
        .isEqualTo(202);
    assertThat(jobs()).as("one job for the pair, whichever member asked").isEqualTo(1);
    assertThat(profileJobs.startAutomatic()).as("the pair is covered").isZero();

    JsonNode job = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN).json();
    assertThat(job.get("reason").asString()).isEqualTo("profile");
    assertThat(job.get("plan").valueStream().map(e -> e.get("benchmark").asString())).containsExactly("fork", "spawn");
    assertThat(job.get("plan").get(0).get("versions").valueStream().map(JsonNode::asString))
        .containsExactly("1.0", "2.0");
    assertThat(http().get(path).json().get("status").asString()).isEqualTo("running");
    long id = job.get("id").asLong();
    String lease = job.get("lease").asString();

    Http.Response base = http().postJson("/api/v1/profiles", json(withNames(profile(id, "1.0", "spawn", 1, 0))), TOKEN);
    assertThat(base.status()).as(base.body()).isEqualTo(201);
    Http.Response head = http().postJson("/api/v1/profiles", json(withNames(profile(id, "2.0", "spawn", 3, 2))), TOKEN);
    assertThat(head.status()).as(head.body()).isEqualTo(201);
    long baseId = base.json().get("id").asLong();
    long headId = head.json().get("id").asLong();

    Http.Response withRuns = http().postJson("/api/v1/lab/jobs/" + id + "/finish", "{\"lease\": \"" + lease
        + "\", \"runIds\": [\"" + java.util.UUID.randomUUID() + "\"]}", TOKEN);
    assertThat(withRuns.status()).isEqualTo(400);
    assertThat(withRuns.body()).contains("profileIds");
    Http.Response foreign = http().postJson("/api/v1/lab/jobs/" + id + "/finish", "{\"lease\": \"" + lease
        + "\", \"profileIds\": [" + baseId + ", 999999999]}", TOKEN);
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(foreign.body()).contains("profileIds[1]");
    Http.Response finished = http().postJson("/api/v1/lab/jobs/" + id + "/finish", "{\"lease\": \"" + lease
        + "\", \"profileIds\": [" + baseId + ", " + headId + "]}", TOKEN);
    assertThat(finished.status()).as(finished.body()).isEqualTo(200);

    JsonNode diff = http().get(path).json();
    assertThat(diff.get("status").asString()).isEqualTo("done");
    assertThat(diff.get("sentence").asString()).isEqualTo("each spawn in 2.0 makes 2 more write() calls and 2 more"
        + " context switches");
    assertThat(diff.get("syscalls").get(0).get("name").asString()).isEqualTo("write");
    assertThat(diff.get("syscalls").get(0).get("perOpBaseline").asDouble()).isEqualTo(1.0);
    assertThat(diff.get("syscalls").get(0).get("perOpVersion").asDouble()).isEqualTo(3.0);
    assertThat(diff.get("counters").get(0).get("name").asString()).isEqualTo("voluntary-context-switches");
    assertThat(http().get("/api/v1/regressions/" + regressions.get(1) + "/profile").json().get("status").asString())
        .as("fork was planned but not sent").isEqualTo("failed");

    Http.Response raw = http().get("/api/v1/profiles/" + headId + "/raw/syscalls");
    assertThat(raw.body()).contains("3.0 write <script>");
    Http.Response page = http().page("/regressions/" + spawn);
    assertThat(page.text()).contains("Why", "each spawn in 2.0 makes 2 more write() calls and 2 more context"
        + " switches", "system calls of 2.0");
    assertThat(page.body()).doesNotContain("<script>\n").contains("/profiles/" + headId + "/syscalls.txt");
  }

  private Map<String, Object> withNames(Map<String, Object> p) {
    p.put("product", product);
    p.put("machine", machine);
    return p;
  }

  @Test
  void aProfileIsRefusedNamingTheFieldAndOnlyTheJobsAgentSendsIt() {
    List<Long> regressions = twoRegressions();
    long agent = register(List.of("profile"));
    Http.Response queued = http().postJson("/api/v1/regressions/" + regressions.get(0) + "/profile", "",
        token(Scope.TRIAGE));
    assertThat(queued.status()).isEqualTo(202);
    long id = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN).json().get("id").asLong();

    Map<String, Object> noJob = withNames(profile(id, "1.0", "spawn", 1, 0));
    noJob.remove("job");
    assertThat(http().postJson("/api/v1/profiles", json(noJob), TOKEN).body()).contains("\"job\"");
    Map<String, Object> bad = withNames(profile(id, "3.0", "readdir", -1, Double.NaN));
    bad.put("rawSyscalls", "x".repeat(64 * 1024 + 1));
    Http.Response refused = http().postJson("/api/v1/profiles", json(bad), TOKEN);
    assertThat(refused.status()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("\"version\"", "\"benchmark\"", "syscalls[0].callsPerOp", "counters[0].perOp",
        "rawSyscalls");
    Http.Response otherAgent = http().postJson("/api/v1/profiles", json(withNames(profile(id, "1.0", "spawn", 1, 0))),
        token(Scope.UPLOAD));
    assertThat(otherAgent.status()).as(otherAgent.body()).isEqualTo(409);
    assertThat(http().postJson("/api/v1/profiles", json(withNames(profile(id, "1.0", "spawn", 1, 0))),
        token(Scope.READ)).status()).isEqualTo(403);
    assertThat(jdbc.sql("SELECT count(*) FROM profile WHERE machine = ?").param(machine).query(Long.class).single())
        .as("nothing stored").isZero();
  }

  /**
   * Both members of a summary profiled: the summary says what they share, compare shows the profiles of the two
   * versions, the summary's mail links to each member's profile, and the OpenAPI document lists the 4xx answers.
   */
  @Test
  void whatTheProfilesShowReachesTheSummaryTheCompareAndTheMail() throws Exception {
    List<Long> regressions = twoRegressions();
    long agent = register(List.of("profile"));
    assertThat(http().postJson("/api/v1/regressions/" + regressions.get(0) + "/profile", "", token(Scope.TRIAGE))
        .status()).isEqualTo(202);
    JsonNode job = http().postJson("/api/v1/lab/agents/" + agent + "/claim", "{}", TOKEN).json();
    long id = job.get("id").asLong();
    List<Long> ids = new java.util.ArrayList<>();
    for (String benchmark : List.of("spawn", "fork")) {
      ids.add(http().postJson("/api/v1/profiles", json(withNames(profile(id, "1.0", benchmark, 1, 0))), TOKEN).json()
          .get("id").asLong());
      ids.add(http().postJson("/api/v1/profiles", json(withNames(profile(id, "2.0", benchmark, 3, 2))), TOKEN).json()
          .get("id").asLong());
    }
    assertThat(http().postJson("/api/v1/lab/jobs/" + id + "/finish", json(Map.of("lease", job.get("lease").asString(),
        "profileIds", ids)), TOKEN).status()).isEqualTo(200);

    long summary = http().get("/api/v1/regressions/" + regressions.get(0)).json().get("summaryId").asLong();
    assertThat(http().page("/summaries/" + summary).text()).contains("Why (profiles)",
        "2 of 2 slower benchmarks gained 2 context switches per operation",
        "2 of 2 slower benchmarks make 2 more write() calls per operation", "2 of 2 profiled by the lab");
    String compare = http().page("/compare?product=" + product + "&machine=" + machine + "&base=1.0&head=2.0").text();
    assertThat(compare).contains("Profiles of both versions",
        "fork on " + machine + ": each fork() in 2.0 makes 2 more write() calls and 2 more context switches",
        "spawn on " + machine + ": each spawn in 2.0 makes 2 more write() calls");
    assertThat(http().page("/compare?product=" + product + "&base=1.0&head=1.0").text())
        .doesNotContain("Profiles of both versions");

    try (org.perftrack.server.alerts.Mailbox mailbox = org.perftrack.server.alerts.Mailbox.started(MAIL_PORT)) {
      jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
          .update();
      jakarta.mail.internet.MimeMessage mail = org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(30)).until(() -> mailbox.awaitMessages(ALERT_RECIPIENT, 0,
              java.time.Duration.ofSeconds(1)).stream().filter(m -> subject(m).contains(product)).findFirst()
              .orElse(null), m -> m != null);
      for (long r : regressions) {
        assertThat(org.perftrack.server.alerts.Mailbox.part(mail, "text/plain"))
            .contains("  profile:    " + PUBLIC_URL + "/regressions/" + r + "#profile");
        assertThat(org.perftrack.server.alerts.Mailbox.part(mail, "text/html"))
            .contains("<a href=\"" + PUBLIC_URL + "/regressions/" + r + "#profile\">profile</a>");
      }
    }

    JsonNode api = http().get("/v3/api-docs").json().get("paths");
    assertAnswers(api.get("/api/v1/regressions/{id}/profile").get("get"), "200", "404");
    assertAnswers(api.get("/api/v1/regressions/{id}/profile").get("post"), "202", "403", "404", "409");
    assertAnswers(api.get("/api/v1/profiles").get("post"), "201", "400", "403", "409", "413");
  }

  private static void assertAnswers(JsonNode operation, String... codes) {
    for (String code : codes) {
      assertThat(operation.get("responses").has(code)).as(code + " in " + operation).isTrue();
    }
  }

  private static String subject(jakarta.mail.internet.MimeMessage m) {
    try {
      return m.getSubject();
    } catch (jakarta.mail.MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void openRegressionsOfAPairAnAgentOffersGetOneJobOnce() {
    twoRegressions();
    register(List.of("timing", "profile"));
    assertThat(profileJobs.startAutomatic()).isEqualTo(1);
    assertThat(profileJobs.startAutomatic()).as("once, unless asked again").isZero();
    assertThat(jdbc.sql("SELECT benchmarks FROM lab_job WHERE machine = ? AND reason = 'profile'").param(machine)
        .query((rs, n) -> List.of((String[]) rs.getArray(1).getArray())).single()).containsExactly("fork", "spawn");
  }
}
