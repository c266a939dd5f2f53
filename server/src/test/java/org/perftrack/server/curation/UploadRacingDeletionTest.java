package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * An upload, an import or a branch build that passed its check for deleted names while a deletion of its product,
 * machine or version was being written, and stores its run once that deletion committed: it is refused as if it came
 * after (409 naming the field; an import's line fails with that reason), not stored where nothing shows it.
 */
class UploadRacingDeletionTest extends IntegrationTest {

  @Autowired
  private Curation curation;

  @Autowired
  private TransactionTemplate tx;

  @Test
  void aRunStoredIntoAVersionDeletedMeanwhileIsRefused() throws Exception {
    String product = unique("race");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1", unique("race-a"), result("fork", 75, 76))),
        TOKEN).status()).isEqualTo(201);

    RunUpload racing = run(product, "1.1", unique("race-b"), result("fork", 75, 76));
    Http.Response answer = whileDeleting(() -> curation.deleteVersion(product, "1.1", "racer"), "INSERT INTO run (",
        () -> http().postJson("/api/v1/runs", json(racing), TOKEN));

    assertThat(answer.status()).as(answer.body()).isEqualTo(409);
    assertThat(answer.body()).contains("version", "racer");
    assertThat(jdbc.sql("SELECT count(*) FROM run WHERE id = ?::uuid").param(racing.id()).query(Long.class).single())
        .as("nothing stored").isZero();
  }

  @Test
  void anImportedLineStoredIntoAVersionDeletedMeanwhileFails() throws Exception {
    String product = unique("race-import");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1", unique("race-a"), result("fork", 75, 76))),
        TOKEN).status()).isEqualTo(201);

    String machine = unique("race-b");
    RunUpload racing = run(product, "1.1", machine, result("fork", 75, 76));
    RunUpload elsewhere = run(product, "1.2", machine, result("fork", 75, 76));
    // the third line repeats the first: it stands or falls with it
    String lines = String.join("\n", json(racing), json(elsewhere), json(racing)) + "\n";
    Http.Response answer = whileDeleting(() -> curation.deleteVersion(product, "1.1", "racer"), "INSERT INTO run (",
        () -> http().postBytes("/api/v1/runs:import", lines.getBytes(StandardCharsets.UTF_8), "application/x-ndjson",
            TOKEN));

    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    JsonNode report = answer.json();
    assertThat(report.get("lines").asLong()).isEqualTo(3);
    assertThat(report.get("created").asInt()).as(answer.body()).isEqualTo(1);
    assertThat(report.get("unchanged").asInt()).as(answer.body()).isZero();
    assertThat(report.get("failed").asInt()).as(answer.body()).isEqualTo(2);
    for (int i = 0; i < 2; i++) {
      JsonNode error = report.get("errors").get(i);
      assertThat(error.get("line").asLong()).isEqualTo(i == 0 ? 1 : 3);
      assertThat(error.get("problems").get(0).get("field").asString()).isEqualTo("version");
      assertThat(error.get("problems").get(0).get("message").asString())
          .startsWith("version 1.1 of " + product + " was deleted by racer at ");
    }
    assertThat(jdbc.sql("SELECT count(*) FROM run WHERE id = ?::uuid").param(racing.id()).query(Long.class).single())
        .as("nothing of the refused line stored").isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM result WHERE run_id = ?::uuid").param(elsewhere.id()).query(Long.class)
        .single()).as("the other line stored whole").isEqualTo(1);
  }

  @Test
  void aBranchBuildStoredIntoAProductDeletedMeanwhileIsRefused() throws Exception {
    String product = unique("race-branch");
    String machine = unique("race-a");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1", machine, result("fork", 75, 76))),
        TOKEN).status()).isEqualTo(201);
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1+pr1.1", machine, result("fork", 75, 76))
        .onBranch("pr-1", null)), TOKEN).status()).isEqualTo(201);

    // the branch is there already: its build refers to the branch, not to the product
    RunUpload racing = run(product, "1.1+pr1.2", machine, result("fork", 75, 76)).onBranch("pr-1", null);
    Http.Response answer = whileDeleting(() -> curation.deleteProduct(product, "racer"), "INSERT INTO branch (",
        () -> http().postJson("/api/v1/runs", json(racing), TOKEN));

    assertThat(answer.status()).as(answer.body()).isEqualTo(409);
    assertThat(answer.body()).contains("product", "racer");
    assertThat(jdbc.sql("SELECT count(*) FROM branch_run WHERE id = ?::uuid").param(racing.id()).query(Long.class)
        .single()).as("nothing stored").isZero();
  }

  @Test
  void aBranchBuildStartingFromAVersionDeletedMeanwhileIsRefused() throws Exception {
    String product = unique("race-start");
    String machine = unique("race-a");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1", machine, result("fork", 75, 76))),
        TOKEN).status()).isEqualTo(201);
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.2", machine, result("fork", 75, 76))),
        TOKEN).status()).isEqualTo(201);

    // its start point is read before the deletion committed; its run's row refers to it and waits for its lock
    RunUpload racing = run(product, "1.1+pr1.1", machine, result("fork", 75, 76)).onBranch("pr-1", "1.1");
    Http.Response answer = whileDeleting(() -> curation.deleteVersion(product, "1.1", "racer"),
        "INSERT INTO branch_run (", () -> http().postJson("/api/v1/runs", json(racing), TOKEN));

    assertThat(answer.status()).as(answer.body()).isEqualTo(409);
    assertThat(answer.json().get("fields").get(0).get("field").asString()).isEqualTo("startPoint");
    assertThat(answer.json().get("detail").asString()).startsWith("version 1.1 of " + product + " was deleted by racer at ");
    assertThat(jdbc.sql("SELECT count(*) FROM branch_run WHERE id = ?::uuid").param(racing.id()).query(Long.class)
        .single()).as("nothing stored").isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM branch b JOIN product p ON p.id = b.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).as("no branch made for it").isZero();
  }

  /**
   * Runs {@code deletion} in a transaction held open until {@code send}, started meanwhile, waits for a lock in a
   * statement containing {@code waiting}; then commits it and returns what {@code send} was answered.
   */
  private Http.Response whileDeleting(Runnable deletion, String waiting, Supplier<Http.Response> send)
      throws Exception {
    CountDownLatch marked = new CountDownLatch(1);
    CountDownLatch commit = new CountDownLatch(1);
    CompletableFuture<Void> deleting = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
      deletion.run();
      marked.countDown();
      try {
        assertThat(commit.await(2, TimeUnit.MINUTES)).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }));
    assertThat(marked.await(2, TimeUnit.MINUTES)).isTrue();

    // the upload sees no deletion yet (it is not committed): it stores its run and waits for the deleted row's lock
    CompletableFuture<Http.Response> upload = CompletableFuture.supplyAsync(send);
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (waitingFor(waiting) == 0 && !upload.isDone() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(upload.isDone()).as("the upload waits for the deletion").isFalse();
    commit.countDown();
    deleting.get(2, TimeUnit.MINUTES);
    return upload.get(2, TimeUnit.MINUTES);
  }

  private long waitingFor(String statement) {
    return jdbc.sql("""
        SELECT count(*) FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND strpos(query, ?) > 0""").param(statement).query(Long.class).single();
  }
}
