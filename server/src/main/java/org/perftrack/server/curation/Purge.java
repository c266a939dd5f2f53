package org.perftrack.server.curation;

import org.perftrack.server.audit.Audit;
import java.util.List;
import java.util.UUID;
import org.perftrack.server.detection.Forgetting;
import org.perftrack.server.ingest.IngestService;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Purges deletions for good once their keep time is over. The runs go in chunks, each its own short transaction
 * (a product's history does not hold one lock for minutes), and the deletion row goes last: a purge cut short by a
 * crash is found again and resumed by the next one.
 */
@Service
class Purge {

  static final int CHUNK = 500;

  private final CurationStore store;
  private final Forgetting forgetting;
  private final IngestService ingest;
  private final Audit audit;
  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final CurationProperties props;

  Purge(CurationStore store, Forgetting forgetting, IngestService ingest, Audit audit, JdbcClient jdbc,
      TransactionTemplate tx, CurationProperties props) {
    this.store = store;
    this.forgetting = forgetting;
    this.ingest = ingest;
    this.audit = audit;
    this.jdbc = jdbc;
    this.tx = tx;
    this.props = props;
  }

  /** Purges every deletion past its keep time; returns how many. */
  int expired() {
    List<Long> due = store.expired(props.keepDeleted().toSeconds());
    due.forEach(this::purge);
    return due.size();
  }

  static final String RUN_CHUNK = "SELECT id FROM run WHERE deletion_id = ? ORDER BY id LIMIT ? FOR UPDATE";

  /** Purges one deletion for good (whatever its age). */
  void purge(long deletion) {
    List<UUID> chunk;
    do {
      chunk = tx.execute(s -> {
        List<UUID> ids = jdbc.sql(RUN_CHUNK).params(deletion, CHUNK).query(UUID.class).list();
        UUID[] array = ids.toArray(UUID[]::new);
        jdbc.sql("DELETE FROM result_set_aside WHERE run_id = ANY(?::uuid[])").param(array).update();
        jdbc.sql("DELETE FROM result WHERE run_id = ANY(?::uuid[])").param(array).update();
        jdbc.sql("DELETE FROM run WHERE id = ANY(?::uuid[])").param(array).update();
        return ids;
      });
    } while (chunk.size() == CHUNK);
    boolean versions = tx.execute(s -> store.lockDeletion(deletion, 0).map(d -> {
      boolean version = "version".equals(d.kind());
      if (version) {
        forgetVersion(d.versionId());
      }
      store.forgetDeletion(deletion);
      audit.record("perftrack", "purged", d.description(), "deletion " + d.id() + " by " + d.deletedBy());
      return version;
    }).orElse(false));
    if (versions) {
      ingest.versionsPurged();
    }
  }

  static final String LIVE_RUNS = "SELECT EXISTS (SELECT 1 FROM run WHERE version_id = ?)";

  /**
   * The version itself, with what refers to it; a version uploaded to again after its deletion (its new runs count)
   * is kept and shown again instead.
   */
  private void forgetVersion(long versionId) {
    if (jdbc.sql(LIVE_RUNS).param(versionId).query(Boolean.class).single()) {
      store.deleteVersion(versionId, null);
      return;
    }
    List<Long> steps = forgetting.stepsOf(versionId);
    Long[] ids = steps.toArray(Long[]::new);
    jdbc.sql("DELETE FROM summary_member WHERE regression_id = ANY(?::bigint[])"
        + " OR summary_id IN (SELECT id FROM summary WHERE version_id = ?)").params(ids, versionId).update();
    jdbc.sql("DELETE FROM bisection_regression WHERE regression_id = ANY(?::bigint[])").param(ids).update();
    jdbc.sql("DELETE FROM alert_regression WHERE regression_id = ANY(?::bigint[])").param(ids).update();
    forgetting.forgetVersion(versionId, steps);
    jdbc.sql("DELETE FROM summary WHERE version_id = ?").param(versionId).update();
    jdbc.sql(CHART_BOUNDARIES).param(versionId).update();
    jdbc.sql("DELETE FROM version WHERE id = ?").param(versionId).update();
  }

  /** Its chart block boundaries, unless another version of the product has the same sort key. */
  static final String CHART_BOUNDARIES = """
      DELETE FROM chart_boundary b USING version v
      WHERE v.id = ? AND b.product_id = v.product_id AND b.sort_key = v.sort_key
        AND NOT EXISTS (SELECT 1 FROM version o WHERE o.product_id = v.product_id AND o.sort_key = v.sort_key
                        AND o.id <> v.id)""";
}
