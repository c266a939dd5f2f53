package org.perftrack.server.regressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Home's open regressions come newest first by their exact time, as the summaries do: a mild step detected forty
 * seconds after a severe one comes before it, although both fell in the same minute.
 */
class OpenRegressionsOrderTest extends IntegrationTest {

  @Autowired
  private OpenRegressions open;

  @Test
  void aNewerMildStepInTheSameMinuteComesBeforeAnOlderSevereOne() {
    long severe = step(unique("open-severe"));
    long mild = step(unique("open-mild"));
    List<OffsetDateTime> before = jdbc.sql("SELECT detected_at FROM regression WHERE id IN (?, ?) ORDER BY id")
        .params(severe, mild).query(OffsetDateTime.class).list();
    try {
      // both in one minute far ahead of every other test's regression, so that they head the list
      jdbc.sql("UPDATE regression SET detected_at = TIMESTAMPTZ '2100-01-01 10:00:10Z' WHERE id = ?").param(severe)
          .update();
      jdbc.sql("UPDATE regression SET detected_at = TIMESTAMPTZ '2100-01-01 10:00:50Z', ratio = 1.2 WHERE id = ?")
          .param(mild).update();

      List<Long> shown = open.newestWorstFirst(2).shown().stream().map(Regression::id).toList();
      assertThat(shown).containsExactly(mild, severe);
    } finally {
      jdbc.sql("UPDATE regression SET detected_at = ? WHERE id = ?").params(before.get(0), Math.min(severe, mild))
          .update();
      jdbc.sql("UPDATE regression SET detected_at = ? WHERE id = ?").params(before.get(1), Math.max(severe, mild))
          .update();
    }
  }

  /** The id of the one regression a step history opens in a new product. */
  private long step(String product) {
    for (RunUpload run : StepFixtures.history(product, unique("xp"), "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    List<Long> ids = jdbc.sql("""
        SELECT rg.id FROM regression rg JOIN series s ON s.id = rg.series_id JOIN product p ON p.id = s.product_id
        WHERE p.name = ? AND rg.status = 'open' AND rg.kind = 'regression'""").param(product).query(Long.class).list();
    assertThat(ids).hasSize(1);
    return ids.get(0);
  }
}
