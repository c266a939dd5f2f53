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
 *
 * <p>Size: {@code purge} (about 45 lines) is the order a deletion is purged in (subject's rows, runs in chunks, then
 * the deletion and its subject in one transaction), kept together on purpose.
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
    Long product = jdbc.sql("SELECT product_id FROM deletion WHERE id = ? AND kind = 'product'").param(deletion)
        .query(Long.class).optional().orElse(null);
    if (product != null) {
      purgeProduct(product);
    }
    Long machine = jdbc.sql("SELECT machine_id FROM deletion WHERE id = ? AND kind = 'machine'").param(deletion)
        .query(Long.class).optional().orElse(null);
    if (machine != null) {
      purgeMachine(machine);
    }
    List<UUID> chunk;
    do {
      chunk = tx.execute(s -> {
        List<UUID> ids = jdbc.sql(RUN_CHUNK).params(deletion, CHUNK).query(UUID.class).list();
        deleteRuns(ids);
        return ids;
      });
    } while (chunk.size() == CHUNK);
    boolean versions = tx.execute(s -> store.lockDeletion(deletion, 0).map(d -> {
      boolean version = !List.of("run", "branch", "annotation").contains(d.kind());
      if ("version".equals(d.kind())) {
        forgetVersion(d.versionId());
      }
      store.forgetDeletion(deletion);
      if ("product".equals(d.kind())) {
        jdbc.sql("DELETE FROM product WHERE id = ?").param(d.productId()).update();
      }
      if ("machine".equals(d.kind())) {
        jdbc.sql("DELETE FROM machine WHERE id = ?").param(d.machineId()).update();
      }
      if ("branch".equals(d.kind())) { // its builds and their results go with it
        jdbc.sql("DELETE FROM branch WHERE id = ?").param(d.branchId()).update();
      }
      if ("annotation".equals(d.kind())) {
        jdbc.sql("DELETE FROM annotation WHERE id = ? AND deletion_id = ?").params(d.annotationId(), d.id()).update();
      }
      if ("lab-agent".equals(d.kind())) {
        jdbc.sql("DELETE FROM lab_agent WHERE id = ? AND deletion_id = ?").params(d.labAgentId(), d.id()).update();
      }
      audit.record("perftrack", "purged", d.description(), "deletion " + d.id() + " by " + d.deletedBy());
      return version;
    }).orElse(false));
    if (versions) { // names an upload may use again
      ingest.versionsPurged();
      ingest.machinesRenamed();
    }
  }

  static final int VERSIONS_AT_ONCE = 20;
  static final int SERIES_AT_ONCE = 200;

  static final String RUNS_OF_VERSIONS = """
      SELECT r.id FROM (SELECT id FROM version WHERE product_id = ? ORDER BY id LIMIT ?) AS v
      JOIN run r ON r.version_id = v.id LIMIT ?""";

  /**
   * A deleted product's rows, in short transactions: its runs with their results a few versions at a time, then its
   * series with what detection kept of them, then the rest. Each step finds what is left, so a purge cut short
   * resumes where it stopped.
   */
  private void purgeProduct(long product) {
    List<UUID> runs;
    do {
      runs = tx.execute(s -> {
        List<UUID> ids = jdbc.sql(RUNS_OF_VERSIONS).params(product, VERSIONS_AT_ONCE, CHUNK).query(UUID.class).list();
        deleteRuns(ids);
        if (ids.isEmpty()) { // the first versions have no runs left: they go now, so the next chunk finds others
          forgetEmptyVersions(product);
        }
        return ids;
      });
    } while (!runs.isEmpty() || hasVersions(product));
    purgeSeries("SELECT id FROM series WHERE product_id = ? ORDER BY id LIMIT ?", product);
    tx.executeWithoutResult(s -> {
      String name = jdbc.sql("SELECT name FROM product WHERE id = ?").param(product).query(String.class).single();
      for (String sql : PRODUCT_ROWS) {
        jdbc.sql(sql).param(product).update();
      }
      for (String sql : PRODUCT_NAMED_ROWS) {
        jdbc.sql(sql).param(name).update();
      }
    });
  }

  static final String RUNS_OF_MACHINE = "SELECT id FROM run WHERE machine_id = ? LIMIT ?";
  static final String BRANCH_RUNS_OF_MACHINE = "DELETE FROM branch_run WHERE machine_id = ?";

  /** A deleted machine's rows: its runs, its series with what detection kept, what the lab and mail keep by name. */
  private void purgeMachine(long machine) {
    List<UUID> runs;
    do {
      runs = tx.execute(s -> {
        List<UUID> ids = jdbc.sql(RUNS_OF_MACHINE).params(machine, CHUNK).query(UUID.class).list();
        deleteRuns(ids);
        return ids;
      });
    } while (!runs.isEmpty());
    purgeSeries("SELECT id FROM series WHERE machine_id = ? ORDER BY id LIMIT ?", machine);
    tx.executeWithoutResult(s -> {
      String name = jdbc.sql("SELECT name FROM machine WHERE id = ?").param(machine).query(String.class).single();
      jdbc.sql(BRANCH_RUNS_OF_MACHINE).param(machine).update();
      for (String sql : PRODUCT_NAMED_ROWS) {
        jdbc.sql(sql.replace("product = ?", "machine = ?")).param(name).update();
      }
    });
  }

  /** The series the query finds (a chunk at a time), with what detection kept of them and what refers to it. */
  private void purgeSeries(String query, long owner) {
    List<Long> series;
    do {
      series = tx.execute(s -> {
        List<Long> ids = jdbc.sql(query).params(owner, SERIES_AT_ONCE).query(Long.class).list();
        if (!ids.isEmpty()) {
          List<Long> steps = forgetting.stepsOfSeries(ids);
          forgetReferences(steps);
          forgetting.forgetSeries(ids, steps);
          jdbc.sql("DELETE FROM branch_result WHERE series_id = ANY(?::bigint[])").param(ids.toArray(Long[]::new))
              .update();
          jdbc.sql("DELETE FROM series WHERE id = ANY(?::bigint[])").param(ids.toArray(Long[]::new)).update();
        }
        return ids;
      });
    } while (!series.isEmpty());
  }

  /** What refers to a product by id, in an order its foreign keys allow; the deletion rows go with it. */
  static final List<String> PRODUCT_ROWS = List.of(
      "DELETE FROM summary_member WHERE summary_id IN (SELECT id FROM summary WHERE product_id = ?)",
      "DELETE FROM summary WHERE product_id = ?",
      "DELETE FROM benchmark_setting WHERE product_id = ?",
      "DELETE FROM chart_boundary WHERE product_id = ?",
      "DELETE FROM branch WHERE product_id = ?",
      "DELETE FROM version WHERE product_id = ?",
      "DELETE FROM deletion WHERE product_id = ? AND kind <> 'product'");

  /** What refers to a product by name (the lab and the mail log keep names). */
  static final List<String> PRODUCT_NAMED_ROWS = List.of(
      "DELETE FROM bisection_regression WHERE bisection_id IN (SELECT id FROM bisection WHERE product = ?)",
      "DELETE FROM bisection WHERE product = ?",
      "DELETE FROM lab_job WHERE product = ?",
      "DELETE FROM lab_schedule WHERE product = ?",
      "DELETE FROM lab_agent WHERE product = ?",
      "DELETE FROM alert_regression WHERE product = ?");

  private boolean hasVersions(long product) {
    return jdbc.sql("SELECT EXISTS (SELECT 1 FROM version WHERE product_id = ?)").param(product)
        .query(Boolean.class).single();
  }

  private void forgetEmptyVersions(long product) {
    List<Long> versions = jdbc.sql("""
        SELECT v.id FROM (SELECT id FROM version WHERE product_id = ? ORDER BY id LIMIT ?) AS v
        WHERE NOT EXISTS (SELECT 1 FROM run r WHERE r.version_id = v.id)""").params(product, VERSIONS_AT_ONCE)
        .query(Long.class).list();
    versions.forEach(this::forgetVersion);
  }

  private void deleteRuns(List<UUID> ids) {
    UUID[] array = ids.toArray(UUID[]::new);
    jdbc.sql("DELETE FROM result_set_aside WHERE run_id = ANY(?::uuid[])").param(array).update();
    jdbc.sql("DELETE FROM result WHERE run_id = ANY(?::uuid[])").param(array).update();
    jdbc.sql("DELETE FROM run WHERE id = ANY(?::uuid[])").param(array).update();
  }

  private void forgetReferences(List<Long> steps) {
    Long[] ids = steps.toArray(Long[]::new);
    jdbc.sql("DELETE FROM summary_member WHERE regression_id = ANY(?::bigint[])").param(ids).update();
    jdbc.sql("DELETE FROM bisection_regression WHERE regression_id = ANY(?::bigint[])").param(ids).update();
    jdbc.sql("DELETE FROM alert_regression WHERE regression_id = ANY(?::bigint[])").param(ids).update();
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
    forgetReferences(steps);
    jdbc.sql("DELETE FROM summary_member WHERE summary_id IN (SELECT id FROM summary WHERE version_id = ?)")
        .param(versionId).update();
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
