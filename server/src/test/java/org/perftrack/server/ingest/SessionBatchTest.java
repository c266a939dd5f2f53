package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.sessionSamples;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A session that says how many runs it sends ({@code batchSize}) is judged as one, in version order, whatever the
 * order its runs arrive in: sent by plain HTTP newest version first, a step under the whole session is opened once,
 * at its first version, in one summary, and nothing is moved or withdrawn.
 */
class SessionBatchTest extends IntegrationTest {

  @Autowired
  private SessionSettler settler;

  @Autowired
  private Sessions sessions;

  @Autowired
  private org.springframework.transaction.support.TransactionTemplate tx;

  private final Random random = new Random(5);
  private static final List<String> BENCHMARKS = List.of("write-64b", "fork", "read-64b");

  private RunUpload measured(String product, String machine, String version, String batch, Integer size,
      double factor) {
    List<ResultUpload> results = new ArrayList<>();
    for (int b = 0; b < BENCHMARKS.size(); b++) {
      results.add(new ResultUpload(BENCHMARKS.get(b), "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
          sessionSamples(random, 40 * (b + 1) * (b == 0 ? factor : 1))));
    }
    RunUpload run = run(product, version, machine, results.toArray(ResultUpload[]::new));
    return new RunUpload(run.id(), product, version, run.machine(), run.suite(), batch, null, null,
        run.attributes(), run.results(), run.failures(), null, null, size);
  }

  private void history(String product, String machine) {
    for (int v = 1; v <= 6; v++) {
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, "1.6." + v + "-1", null,
          null, 1)), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      assertThat(r.json().has("session")).as("a run without batchSize is judged on arrival").isFalse();
    }
  }

  private JsonNode regressions(String product) {
    return http().getWithToken("/api/v1/regressions?status=all&product=" + product, TOKEN).json();
  }

  private JsonNode summaries(String product) {
    JsonNode s = http().getWithToken("/api/v1/summaries?status=all&product=" + product, TOKEN).json();
    return s.isArray() ? s : s.get("items");
  }

  @Test
  void aSessionSentNewestFirstIsJudgedWhenItsLastRunArrivesAndOpensOneStepNeverMoved() {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();

    List<JsonNode> answers = new ArrayList<>();
    for (String version : List.of("1.7.6-1", "1.7.5-1", "1.7.2-1", "1.7.4-1")) {
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, version, batch, 4, 2)),
          TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      answers.add(r.json());
    }

    for (JsonNode waiting : answers.subList(0, 3)) {
      assertThat(waiting.get("regressions")).isEmpty();
      assertThat(waiting.get("session").get("judged").asBoolean()).isFalse();
      assertThat(waiting.get("session").get("batchSize").asInt()).isEqualTo(4);
      assertThat(waiting.get("session").get("note").asString()).as("when it will be judged, a missing run or not")
          .isEqualTo("judged with its session when the session's runs are all stored, or once none of them arrived "
              + "for 1 h");
    }
    assertThat(answers.get(1).get("session").get("stored").asInt()).isEqualTo(2);
    JsonNode last = answers.get(3);
    assertThat(last.get("session").get("judged").asBoolean()).isTrue();
    assertThat(last.get("regressions")).as("the whole session's regressions, in the answer to its last run")
        .singleElement().satisfies(r -> {
          assertThat(r.get("benchmark").asString()).isEqualTo("write-64b");
          assertThat(r.get("version").asString()).isEqualTo("1.7.2-1");
          assertThat(r.get("confirmed").asBoolean()).as("its newer versions show it too").isTrue();
        });
    assertThat(last.get("confirmed")).as("a step the session both opened and confirmed is listed once, under "
        + "regressions (the agent printed it as REGRESSION and again as CONFIRMED)").isEmpty();
    assertThat(regressions(product)).singleElement().satisfies(r -> {
      assertThat(r.get("version").asString()).isEqualTo("1.7.2-1");
      assertThat(r.get("status").asString()).isEqualTo("open");
      assertThat(r.get("history").findValuesAsString("action")).doesNotContain("reattributed", "withdrawn");
    });
    assertThat(summaries(product)).hasSize(1);
    // each run page of the session says what the session found: the run of 1.7.2-1, where the step is, as well as
    // the one that completed the session (before, 1.7.2-1's page said nothing and 1.7.4-1's listed a step at 1.7.2-1)
    for (JsonNode answer : List.of(answers.get(2), answers.get(3))) {
      assertThat(http().page("/runs/" + answer.get("id").asString()).text())
          .contains("What its session found", "regression write-64b time-per-op 1.6.6-1 → 1.7.2-1");
    }
  }

  @Test
  void eachRunsReportSaysItWaitsForItsSessionThenListsTheSessionsRegressionsAtItsVersion() {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();

    java.util.Map<String, String> ids = new java.util.LinkedHashMap<>();
    for (String version : List.of("1.7.6-1", "1.7.5-1", "1.7.2-1")) {
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, version, batch, 4, 2)),
          TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      ids.put(version, r.json().get("id").asString());
    }
    String pending = report(ids.get("1.7.2-1"), "markdown");
    assertThat(pending).as(pending).startsWith("perftrack: `" + product + "` `1.7.2-1` on `" + machine + "` is not judged"
        + " yet: the server judges it with its session once the session's other runs are stored");
    String pendingXml = report(ids.get("1.7.2-1"), "junit");
    assertThat(pendingXml).contains("failures=\"0\"", "<skipped message=\"not judged yet: ").doesNotContain("<failure");

    Http.Response last = http().postJson("/api/v1/runs", json(measured(product, machine, "1.7.4-1", batch, 4, 2)),
        TOKEN);
    assertThat(last.json().get("regressions")).singleElement()
        .satisfies(r -> assertThat(r.get("version").asString()).isEqualTo("1.7.2-1"));
    ids.put("1.7.4-1", last.json().get("id").asString());
    // the completing upload's regression is in the report of the run of its version, once
    String atStep = report(ids.get("1.7.2-1"), "markdown");
    assertThat(atStep).as(atStep).startsWith("### perftrack: 1 regression\nRun of `" + product + "` `1.7.2-1` on `" + machine
        + "` (judged with its session of 4 runs: the regressions at each of its versions are in that version's report)")
        .contains("| `write-64b` | `time-per-op` | `1.6.6-1`: ");
    assertThat(report(ids.get("1.7.2-1"), "junit")).contains("failures=\"1\"", "<failure type=\"regression\"");
    for (String other : List.of("1.7.4-1", "1.7.5-1", "1.7.6-1")) {
      assertThat(report(ids.get(other), "junit")).as(other).contains("failures=\"0\"").doesNotContain("<skipped");
    }
  }

  private String report(String runId, String format) {
    Http.Response r = http().getWithToken("/api/v1/runs/" + runId + "/report?format=" + format, TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  @Test
  void runsOfASessionSentAllAtOnceAreJudgedOnceByTheUploadThatStoresTheLast() throws Exception {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();
    List<String> bodies = new ArrayList<>();
    for (String version : List.of("1.7.6-1", "1.7.5-1", "1.7.2-1", "1.7.4-1")) {
      bodies.add(json(measured(product, machine, version, batch, 4, 2)));
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(bodies.size());
    List<JsonNode> answers = new ArrayList<>();
    try {
      List<java.util.concurrent.Future<Http.Response>> sent = new ArrayList<>();
      bodies.forEach(b -> sent.add(pool.submit(() -> http().postJson("/api/v1/runs", b, TOKEN))));
      for (java.util.concurrent.Future<Http.Response> f : sent) {
        assertThat(f.get().status()).as(f.get().body()).isEqualTo(201);
        answers.add(f.get().json());
      }
    } finally {
      pool.shutdown();
    }

    assertThat(answers).filteredOn(a -> a.get("session").get("judged").asBoolean()).singleElement()
        .satisfies(a -> assertThat(a.get("regressions")).hasSize(1));
    assertThat(regressions(product)).singleElement().satisfies(r -> {
      assertThat(r.get("version").asString()).isEqualTo("1.7.2-1");
      assertThat(r.get("history").findValuesAsString("action")).doesNotContain("reattributed", "withdrawn");
    });
  }

  @Test
  void aSessionWhoseLastRunNeverArrivesIsJudgedAfterTheSettleTime() {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();
    for (String version : List.of("1.7.5-1", "1.7.2-1")) {
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, version, batch, 3, 2)),
          TOKEN);
      assertThat(r.json().get("session").get("judged").asBoolean()).as(r.body()).isFalse();
    }
    assertThat(regressions(product)).as("nothing judged while the session may still send").isEmpty();
    // time passes, a minute short of the settle time (1 h here): a look of the settler leaves the session waiting
    backdate(batch, "59 minutes");
    settler.judgeSettled();
    assertThat(regressions(product)).as("not judged before the settle time").isEmpty();
    assertThat(pending(batch)).isEqualTo(2);
    // ... and the rest of it: the settler (its own thread, or this look) judges the runs it has
    backdate(batch, "2 minutes");
    settler.judgeSettled();

    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
        .until(() -> regressions(product).size() > 0);

    assertThat(regressions(product)).singleElement().satisfies(r -> {
      assertThat(r.get("version").asString()).isEqualTo("1.7.2-1");
      assertThat(r.get("history").findValuesAsString("action")).doesNotContain("reattributed", "withdrawn");
    });
    assertThat(pending(batch)).isZero();
  }

  private long pending(String batch) {
    return jdbc.sql("SELECT count(*) FROM session_pending p JOIN run r ON r.id = p.run_id WHERE r.batch = ?")
        .param(UUID.fromString(batch)).query(Long.class).single();
  }

  /** Time passes for the session's waiting runs: they arrived {@code by} (an SQL interval) earlier. */
  private void backdate(String batch, String by) {
    jdbc.sql("UPDATE session_pending p SET received_at = p.received_at - ?::interval FROM run r "
        + "WHERE r.id = p.run_id AND r.batch = ?").params(by, UUID.fromString(batch)).update();
  }

  @Test
  void aResentRunOfAJudgedSessionAnswersItsRegressionsAgain() {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();
    RunUpload first = measured(product, machine, "1.7.3-1", batch, 2, 2);
    RunUpload second = measured(product, machine, "1.7.2-1", batch, 2, 2);
    http().postJson("/api/v1/runs", json(first), TOKEN);
    JsonNode judged = http().postJson("/api/v1/runs", json(second), TOKEN).json();

    Http.Response again = http().postJson("/api/v1/runs", json(second), TOKEN);
    Http.Response firstAgain = http().postJson("/api/v1/runs", json(first), TOKEN);

    // the completing upload sent again (its answer timed out at the client): the session's answer, again
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("regressions")).isEqualTo(judged.get("regressions")).hasSize(1);
    assertThat(again.json().get("regressions").get(0).get("version").asString()).isEqualTo("1.7.2-1");
    assertThat(again.json().get("session").get("judged").asBoolean()).as(again.body()).isTrue();
    assertThat(again.json().get("session").get("batch").asString()).isEqualTo(batch);
    // the same summary, said as the first answer said it: opened, not "changed"
    assertThat(judged.get("summaries").findValuesAsString("change")).containsExactly("opened");
    assertThat(again.json().get("summaries")).as(again.body()).isEqualTo(judged.get("summaries"));
    assertThat(firstAgain.status()).isEqualTo(200);
    assertThat(firstAgain.json().get("session").get("judged").asBoolean()).isTrue();
  }

  @Test
  void aResentRunAnswersEachSummaryAsItsFirstAnswerDidOpenedOrGrew() {
    String product = unique("session");
    String opener = unique("lab");
    String grower = unique("lab");
    history(product, opener);
    history(product, grower);
    List<JsonNode> firsts = new ArrayList<>();
    List<RunUpload> completing = new ArrayList<>();
    for (String machine : List.of(opener, grower)) {
      String batch = UUID.randomUUID().toString();
      http().postJson("/api/v1/runs", json(measured(product, machine, "1.7.3-1", batch, 2, 2)), TOKEN);
      RunUpload last = measured(product, machine, "1.7.2-1", batch, 2, 2);
      Http.Response r = http().postJson("/api/v1/runs", json(last), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      firsts.add(r.json());
      completing.add(last);
    }
    assertThat(firsts.get(0).get("summaries").findValuesAsString("change")).containsExactly("opened");
    assertThat(firsts.get(1).get("summaries").findValuesAsString("change")).as("the other machine's session joins "
        + "the summary of 1.7.2-1").containsExactly("grew");
    assertThat(firsts.get(1).get("summaries").findValuesAsString("url"))
        .isEqualTo(firsts.get(0).get("summaries").findValuesAsString("url"));

    for (int i = 1; i >= 0; i--) { // the later session first: its re-send does not claim the opening of the other
      Http.Response again = http().postJson("/api/v1/runs", json(completing.get(i)), TOKEN);
      assertThat(again.status()).as(again.body()).isEqualTo(200);
      assertThat(again.json().get("summaries")).as(again.body()).isEqualTo(firsts.get(i).get("summaries"));
      assertThat(again.json().get("regressions")).isEqualTo(firsts.get(i).get("regressions"));
    }
    assertThat(summaries(product)).singleElement()
        .satisfies(s -> assertThat(s.get("status").asString()).isEqualTo("open"));
  }

  @Test
  void aCompletingRunResentWhileItsFirstUploadIsStillJudgingIsJudgedAndStoredOnce() throws Exception {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();
    http().postJson("/api/v1/runs", json(measured(product, machine, "1.7.3-1", batch, 2, 2)), TOKEN);
    String completing = json(measured(product, machine, "1.7.2-1", batch, 2, 2));

    // the session is held (as the settler holds it while it judges): the first upload stores its run and waits for
    // the session; the re-send, sent meanwhile (the agent's answer timed out), waits for the first upload's run row
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
      sessions.lock(UUID.fromString(batch));
      held.countDown();
      awaitLatch(release);
    }));
    awaitLatch(held);
    CompletableFuture<Http.Response> first = CompletableFuture.supplyAsync(
        () -> http().postJson("/api/v1/runs", completing, TOKEN));
    awaitWaiting("perftrack session", 1, first);
    CompletableFuture<Http.Response> resent = CompletableFuture.supplyAsync(
        () -> http().postJson("/api/v1/runs", completing, TOKEN));
    awaitWaiting("INSERT INTO run (", 1, resent);
    assertThat(first.isDone() || resent.isDone()).as("both uploads are under way").isFalse();
    release.countDown();
    holder.get(2, TimeUnit.MINUTES);
    Http.Response a = first.get(5, TimeUnit.MINUTES);
    Http.Response b = resent.get(5, TimeUnit.MINUTES);

    assertThat(a.status()).as(a.body()).isEqualTo(201);
    assertThat(b.status()).as("the re-send is answered as the stored run: " + b.body()).isEqualTo(200);
    assertThat(b.json().get("session").get("judged").asBoolean()).isTrue();
    assertThat(a.json().get("regressions")).singleElement()
        .satisfies(r -> assertThat(r.get("version").asString()).isEqualTo("1.7.2-1"));
    assertThat(b.json().get("regressions")).isEqualTo(a.json().get("regressions"));
    assertThat(b.json().get("summaries")).isEqualTo(a.json().get("summaries"));
    assertThat(a.json().get("summaries").findValuesAsString("change")).containsExactly("opened");

    // stored once: the run and its results, one regression opened once, one summary with one member, one mail
    String id = a.json().get("id").asString();
    assertThat(count("SELECT count(*) FROM run WHERE id = ?::uuid", id)).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM result WHERE run_id = ?::uuid", id)).isEqualTo(BENCHMARKS.size());
    assertThat(count("SELECT count(*) FROM regression WHERE created_by_run = ?::uuid", id)).isEqualTo(1);
    assertThat(jdbc.sql("""
        SELECT e.action FROM regression_event e JOIN regression g ON g.id = e.regression_id
        JOIN series s ON s.id = g.series_id JOIN product p ON p.id = s.product_id WHERE p.name = ? ORDER BY e.id""")
        .param(product).query(String.class).list()).as("opened once (and confirmed by its newer version), never "
            + "withdrawn or moved").containsExactly("opened", "confirmed");
    assertThat(count("""
        SELECT count(*) FROM summary_member m JOIN summary su ON su.id = m.summary_id
        JOIN product p ON p.id = su.product_id WHERE p.name = ?""", product)).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM alert_outbox WHERE kind = 'summary' AND recipient = '"
        + ALERT_RECIPIENT + "' AND strpos(payload::text, ?) > 0", product)).as("one summary mail").isEqualTo(1);
    assertThat(pending(batch)).isZero();
    assertThat(regressions(product)).singleElement()
        .satisfies(r -> assertThat(r.get("history").findValuesAsString("action")).containsOnlyOnce("opened")
            .doesNotContain("withdrawn", "reattributed"));
  }

  private long count(String sql, String param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      assertThat(latch.await(2, TimeUnit.MINUTES)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Until {@code n} database sessions wait for a lock in a statement containing {@code statement}. */
  private void awaitWaiting(String statement, int n, CompletableFuture<?> upload) {
    await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50)).until(() -> {
      assertThat(upload.isDone()).as("the upload waits: " + (upload.isDone() ? upload.join() : "")).isFalse();
      return jdbc.sql("""
          SELECT count(*) FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND strpos(query, ?) > 0""").param(statement).query(Long.class)
          .single() >= n;
    });
  }

  /**
   * A session whose versions lie far apart in the series (an old version measured again with new ones, 110 versions
   * on), then a session of runs all of one version: each is judged as its runs say, one step at its version and
   * nothing moved, withdrawn or raised twice; the session's runs outside a run's windows are read no further than
   * the windows reach.
   */
  @Test
  void sessionsOfVersionsFarApartAndOfOneVersionAreJudgedAsTheirRunsSay() {
    String product = unique("session");
    String machine = unique("lab");
    StringBuilder lines = new StringBuilder();
    for (int v = 1; v <= 120; v++) {
      lines.append(json(measured(product, machine, "1." + v + "-1", null, null, 1))).append('\n');
    }
    Http.Response imported = http().postBytes("/api/v1/runs:import",
        lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/x-ndjson", TOKEN);
    assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    assertThat(imported.json().get("created").asInt()).as(imported.body()).isEqualTo(120);
    assertThat(regressions(product)).isEmpty();

    String farApart = UUID.randomUUID().toString();
    List<JsonNode> answers = new ArrayList<>();
    for (String version : List.of("2.2-1", "1.10-1", "2.1-1", "2.0-1")) {
      double factor = version.startsWith("2.") ? 2 : 1;
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, version, farApart, 4,
          factor)), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
      answers.add(r.json());
    }
    assertThat(answers.get(3).get("session").get("judged").asBoolean()).isTrue();
    assertThat(answers.get(3).get("regressions")).singleElement().satisfies(r -> {
      assertThat(r.get("benchmark").asString()).isEqualTo("write-64b");
      assertThat(r.get("baselineVersion").asString()).isEqualTo("1.120-1");
      assertThat(r.get("version").asString()).isEqualTo("2.0-1");
    });
    assertThat(answers.get(3).get("summaries").findValuesAsString("change")).containsExactly("opened");

    String oneVersion = UUID.randomUUID().toString();
    Http.Response last = null;
    for (int i = 0; i < 3; i++) {
      last = http().postJson("/api/v1/runs", json(measured(product, machine, "2.3-1", oneVersion, 3, 2)), TOKEN);
      assertThat(last.status()).as(last.body()).isEqualTo(201);
    }
    assertThat(last.json().get("session").get("judged").asBoolean()).isTrue();
    assertThat(last.json().get("regressions")).as("the level of 2.0-1 measured three times more: nothing new")
        .isEmpty();
    assertThat(last.json().get("summaries")).isEmpty();

    assertThat(regressions(product)).singleElement().satisfies(r -> {
      assertThat(r.get("version").asString()).isEqualTo("2.0-1");
      assertThat(r.get("status").asString()).isEqualTo("open");
      assertThat(r.get("history").findValuesAsString("action")).containsOnlyOnce("opened")
          .doesNotContain("reattributed", "withdrawn");
    });
    assertThat(summaries(product)).hasSize(1);
  }

  /**
   * A session that measures each of its two versions twice (sent A, B, A, B): once judged, each version's point is
   * the level of its own two runs, all their samples, whichever of the session's runs was judged when.
   */
  @Test
  void aSessionsVersionMeasuredTwiceHasThePointOfBothItsRuns() {
    String product = unique("session");
    String machine = unique("lab");
    history(product, machine);
    String batch = UUID.randomUUID().toString();
    Http.Response last = null;
    for (String version : List.of("1.7.1-1", "1.7.2-1", "1.7.1-1", "1.7.2-1")) {
      last = http().postJson("/api/v1/runs", json(measured(product, machine, version, batch, 4,
          version.equals("1.7.2-1") ? 3 : 1)), TOKEN);
      assertThat(last.status()).as(last.body()).isEqualTo(201);
    }
    assertThat(last.json().get("session").get("judged").asBoolean()).as(last.body()).isTrue();
    List<Map<String, Object>> points = jdbc.sql("""
        SELECT v.name AS version, p.sample_count, p.level
        FROM detection_point p JOIN series s ON s.id = p.series_id JOIN machine m ON m.id = s.machine_id
          JOIN version v ON v.id = p.version_id
        WHERE m.name = ? AND s.benchmark = 'write-64b' AND v.name LIKE '1.7.%'
        ORDER BY p.sort_key""").param(machine).query().listOfRows();
    assertThat(points).extracting(p -> p.get("version"), p -> ((Number) p.get("sample_count")).intValue())
        .containsExactly(tuple("1.7.1-1", 10), tuple("1.7.2-1", 10));
    double ratio = ((Number) points.get(1).get("level")).doubleValue()
        / ((Number) points.get(0).get("level")).doubleValue();
    assertThat(ratio).as("1.7.2-1's point is its own runs' level, 3x 1.7.1-1's").isBetween(2.8, 3.2);
  }

  @Test
  void aBatchSizeOutOfBoundsOrWithoutABatchIsA400NamingIt() {
    String product = unique("session");
    String machine = unique("lab");
    String batch = UUID.randomUUID().toString();
    for (RunUpload bad : List.of(measured(product, machine, "1.0", batch, 0, 1),
        measured(product, machine, "1.0", batch, 1001, 1), measured(product, machine, "1.0", null, 2, 1))) {
      Http.Response r = http().postJson("/api/v1/runs", json(bad), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(400);
      assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("batchSize");
    }
    String notANumber = json(measured(product, machine, "1.0", batch, 2, 1)).replace("\"batchSize\":2",
        "\"batchSize\":\"two\"");
    Http.Response r = http().postJson("/api/v1/runs", notANumber, TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("batchSize");
    assertThat(jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).as("nothing stored").isZero();
  }
}
