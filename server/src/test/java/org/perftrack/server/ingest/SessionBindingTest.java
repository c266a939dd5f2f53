package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A session's batch id is no hold on it: the batch is bound to the token and batchSize of its first run, a session is
 * judged after perftrack.detection.batch-max-age whatever keeps arriving, due sessions are judged round-robin between
 * tokens, and anonymous readers of a run do not see its batch.
 */
class SessionBindingTest extends IntegrationTest {

  private final String product = unique("session");
  private final String machine = unique("lab");

  @Autowired
  Sessions sessions;

  @Autowired
  TransactionTemplate tx;

  @Test
  void anotherTokenOrAnotherSizeCannotJoinASessionAndAnonymousReadersDoNotSeeItsBatch() {
    String batch = UUID.randomUUID().toString();
    String stranger = token(Scope.UPLOAD);
    String first = upload(batch, "1.0", 3, TOKEN);

    Http.Response joined = http().postJson("/api/v1/runs", json(inSession(batch, "1.1", 3)), stranger);
    Http.Response judgedEarly = http().postJson("/api/v1/runs", json(inSession(batch, "1.1", 1)), stranger);
    Http.Response resized = http().postJson("/api/v1/runs", json(inSession(batch, "1.1", 1)), TOKEN);
    Http.Response unsized = http().postJson("/api/v1/runs", json(inSession(batch, "1.1", null)), TOKEN);

    assertThat(joined.status()).as(joined.body()).isEqualTo(409);
    assertThat(joined.json().get("fields").get(0).get("field").asString()).isEqualTo("batch");
    assertThat(judgedEarly.status()).isEqualTo(409);
    assertThat(resized.status()).as(resized.body()).isEqualTo(409);
    assertThat(resized.json().get("fields").get(0).get("field").asString()).isEqualTo("batchSize");
    assertThat(unsized.status()).isEqualTo(409);
    assertThat(pending(batch)).as("nothing stored, the session still waits").isEqualTo(1);
    assertThat(http().get("/api/v1/runs/" + first).json().get("batch").isNull()).as("anonymous").isTrue();
    assertThat(http().page("/runs/" + first).body()).doesNotContain(batch);
    assertThat(http().getWithToken("/api/v1/runs/" + first, TOKEN).json().get("batch").asString()).isEqualTo(batch);
    upload(batch, "1.1", 3, TOKEN);
    assertThat(pending(batch)).as("its own token goes on").isEqualTo(2);
  }

  @Test
  void aSessionKeptOpenByARunEveryFewSecondsIsJudgedOnceItsOldestRunWaitedTheMaxAge() {
    String batch = UUID.randomUUID().toString();
    upload(batch, "2.0", 50, TOKEN);
    // time passes: the first run waited 3 hours (batch-max-age 2 h here, 10 min by default), a run arrived just now
    jdbc.sql("UPDATE session_pending p SET received_at = p.received_at - interval '3 hours' FROM run r"
        + " WHERE r.id = p.run_id AND r.batch = ?").param(UUID.fromString(batch)).update();
    upload(batch, "2.1", 50, TOKEN);

    // the settler's own thread (settle 1 h here: the session is not settled) judges it whatever keeps arriving
    await().atMost(Duration.ofSeconds(60)).until(() -> pending(batch) == 0);
  }

  @Test
  void dueSessionsAreTakenRoundRobinBetweenTokens() {
    String other = token(Scope.UPLOAD);
    List<String> many = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
        UUID.randomUUID().toString());
    String victim = UUID.randomUUID().toString();
    for (String b : many) {
      upload(b, "3.0", 9, TOKEN);
    }
    upload(victim, "3.0", 9, other);

    // in a transaction of its own, rolled back: the settler's thread never sees these sessions due
    List<UUID> order = tx.execute(status -> {
      status.setRollbackOnly();
      int hours = 5;
      for (String b : many) {
        backdate(b, hours--);
      }
      backdate(victim, 2);
      List<UUID> mine = List.of(UUID.fromString(many.get(0)), UUID.fromString(many.get(1)),
          UUID.fromString(many.get(2)), UUID.fromString(victim));
      return sessions.settled(Duration.ofHours(1), Duration.ofDays(1)).stream().map(Sessions.Waiting::batch)
          .filter(mine::contains).toList();
    });

    assertThat(order).as("the other token's session is second, not behind all of the first's")
        .containsExactly(UUID.fromString(many.get(0)), UUID.fromString(victim), UUID.fromString(many.get(1)),
            UUID.fromString(many.get(2)));
  }

  private void backdate(String batch, int hours) {
    jdbc.sql("UPDATE session_pending p SET received_at = now() - make_interval(hours => ?) FROM run r"
        + " WHERE r.id = p.run_id AND r.batch = ?").params(hours, UUID.fromString(batch)).update();
  }

  private Map<String, Object> inSession(String batch, String version, Integer size) {
    Map<String, Object> run = Fixtures.asMap(run(product, version, machine, result("fork", 75.0, 75.2, 74.9)));
    run.put("batch", batch);
    run.put("batchSize", size);
    return run;
  }

  private String upload(String batch, String version, int size, String token) {
    Http.Response r = http().postJson("/api/v1/runs", json(inSession(batch, version, size)), token);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }

  private long pending(String batch) {
    return jdbc.sql("SELECT count(*) FROM session_pending p JOIN run r ON r.id = p.run_id WHERE r.batch = ?")
        .param(UUID.fromString(batch)).query(Long.class).single();
  }
}
