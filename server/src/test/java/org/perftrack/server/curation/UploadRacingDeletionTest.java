package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An upload that passed its check for deleted names while a deletion of its version was being written, and stores
 * its run once that deletion committed: it is refused as if it came after (409 naming the field), not stored where
 * nothing shows it.
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

    CountDownLatch marked = new CountDownLatch(1);
    CountDownLatch commit = new CountDownLatch(1);
    // the deletion: marks the version and holds its transaction open until the upload waits on it
    CompletableFuture<Void> deletion = CompletableFuture.runAsync(() -> tx.executeWithoutResult(s -> {
      curation.deleteVersion(product, "1.1", "racer");
      marked.countDown();
      try {
        assertThat(commit.await(2, TimeUnit.MINUTES)).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }));
    assertThat(marked.await(2, TimeUnit.MINUTES)).isTrue();

    // the upload sees no deletion yet (it is not committed): it stores its run and waits for the version's lock
    RunUpload racing = run(product, "1.1", unique("race-b"), result("fork", 75, 76));
    CompletableFuture<Http.Response> upload = CompletableFuture.supplyAsync(
        () -> http().postJson("/api/v1/runs", json(racing), TOKEN));
    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (waitingToStoreARun() == 0 && !upload.isDone() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(upload.isDone()).as("the upload waits for the deletion").isFalse();
    commit.countDown();
    deletion.get(2, TimeUnit.MINUTES);

    Http.Response answer = upload.get(2, TimeUnit.MINUTES);
    assertThat(answer.status()).as(answer.body()).isEqualTo(409);
    assertThat(answer.body()).contains("version", "racer");
    assertThat(jdbc.sql("SELECT count(*) FROM run WHERE id = ?::uuid").param(racing.id()).query(Long.class).single())
        .as("nothing stored").isZero();
  }

  private long waitingToStoreARun() {
    return jdbc.sql("""
        SELECT count(*) FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO run (%'""").query(Long.class).single();
  }
}
