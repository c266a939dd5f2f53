package org.perftrack.server.curation;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of curation. Results of a run that does not count (excluded or deleted) live in {@code result_set_aside},
 * so every reader of {@code result} counts only the runs that count; moving them is one statement each way.
 */
@Repository
class CurationStore {

  /** A run as curation sees it, locked for the change. */
  record RunRow(UUID id, long productId, long versionId, long machineId, String product, String version,
      String machine, Instant excludedAt, String excludedBy, String excludedReason, Long deletionId) {

    boolean counts() {
      return excludedAt == null && deletionId == null;
    }
  }

  /** One deletion, as the Recently deleted page lists it. */
  record Deletion(long id, String kind, Long productId, Long machineId, Long versionId, UUID runId, Long branchId,
      Long labAgentId, Long annotationId, String description, int runs, String deletedBy, Instant deletedAt,
      Instant purgeAt) {}

  private final JdbcClient jdbc;

  CurationStore(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String RUN = """
      SELECT r.id, r.product_id, r.version_id, r.machine_id, p.name AS product, v.name AS version, m.name AS machine,
             r.excluded_at, r.excluded_by, r.excluded_reason, r.deletion_id
      FROM run r JOIN product p ON p.id = r.product_id JOIN version v ON v.id = r.version_id
           JOIN machine m ON m.id = r.machine_id
      WHERE r.id = ?""";

  Optional<RunRow> run(UUID id) {
    return jdbc.sql(RUN).param(id).query(RunRow.class).optional();
  }

  Optional<RunRow> lockRun(UUID id) {
    return jdbc.sql(RUN + " FOR UPDATE OF r").param(id).query(RunRow.class).optional();
  }

  static final String PAIRS = """
      SELECT DISTINCT series_id, version_id FROM (
        SELECT series_id, version_id FROM result WHERE run_id = ANY(?::uuid[])
        UNION ALL SELECT series_id, version_id FROM result_set_aside WHERE run_id = ANY(?::uuid[])) AS x""";

  /** The (series, version) pairs these runs measured. */
  List<List<Long>> pairs(List<UUID> runs) {
    UUID[] ids = runs.toArray(UUID[]::new);
    return jdbc.sql(PAIRS).params(ids, ids).query((rs, i) -> List.of(rs.getLong(1), rs.getLong(2))).list();
  }

  static final String SET_ASIDE = """
      WITH moved AS (DELETE FROM result WHERE run_id = ANY(?::uuid[]) RETURNING *)
      INSERT INTO result_set_aside SELECT * FROM moved""";

  static final String PUT_BACK = """
      WITH moved AS (DELETE FROM result_set_aside WHERE run_id = ANY(?::uuid[]) RETURNING *)
      INSERT INTO result SELECT * FROM moved""";

  /** The results of these runs stop counting. */
  void setAside(List<UUID> runs) {
    jdbc.sql(SET_ASIDE).param(runs.toArray(UUID[]::new)).update();
  }

  /** The results of these runs count again. */
  void putBack(List<UUID> runs) {
    jdbc.sql(PUT_BACK).param(runs.toArray(UUID[]::new)).update();
  }

  void exclude(UUID run, String by, String reason) {
    jdbc.sql("UPDATE run SET excluded_at = now(), excluded_by = ?, excluded_reason = ? WHERE id = ?")
        .params(by, reason, run).update();
  }

  void include(UUID run) {
    jdbc.sql("UPDATE run SET excluded_at = NULL, excluded_by = NULL, excluded_reason = NULL WHERE id = ?")
        .param(run).update();
  }

  static final String NEW_DELETION = """
      INSERT INTO deletion (kind, product_id, version_id, run_id, description, runs, deleted_by)
      VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id""";

  long newDeletion(String kind, Long productId, Long versionId, UUID runId, String description, int runs, String by) {
    return jdbc.sql(NEW_DELETION).params(kind, productId, versionId, runId, description, runs, by)
        .query(Long.class).single();
  }

  void deleteRuns(long deletion, List<UUID> runs) {
    jdbc.sql("UPDATE run SET deletion_id = ? WHERE id = ANY(?::uuid[])").params(deletion, runs.toArray(UUID[]::new))
        .update();
  }

  /** A version of a product, locked for the change; empty when there is none (or it is deleted). */
  record VersionRow(long id, long productId, String product, String name) {}

  static final String VERSION = """
      SELECT v.id, v.product_id, p.name AS product, v.name FROM version v JOIN product p ON p.id = v.product_id
      WHERE p.name = ? AND v.name = ? AND v.deletion_id IS NULL FOR UPDATE OF v""";

  Optional<VersionRow> lockVersion(String product, String version) {
    return jdbc.sql(VERSION).params(product, version).query(VersionRow.class).optional();
  }

  /** The runs of a version that are not deleted, with whether each is excluded; locked. */
  List<RunRow> runsOfVersion(long versionId) {
    return jdbc.sql(RUN.replace("WHERE r.id = ?", "WHERE r.version_id = ? AND r.deletion_id IS NULL ORDER BY r.id")
        + " FOR UPDATE OF r").param(versionId).query(RunRow.class).list();
  }

  void deleteVersion(long versionId, Long deletion) {
    jdbc.sql("UPDATE version SET deletion_id = ? WHERE id = ?").params(deletion, versionId).update();
  }

  Optional<Long> lockMachine(String name) {
    return jdbc.sql("SELECT id FROM machine WHERE name = ? AND deletion_id IS NULL FOR UPDATE").param(name)
        .query(Long.class).optional();
  }

  void deleteMachine(long machineId, Long deletion) {
    jdbc.sql("UPDATE machine SET deletion_id = ? WHERE id = ?").params(deletion, machineId).update();
    jdbc.sql("UPDATE deletion SET machine_id = ? WHERE id = ?").params(machineId, deletion).update();
  }

  record ProductRow(long id, long versionCount) {}

  Optional<ProductRow> lockProduct(String name) {
    return jdbc.sql("SELECT id, live_version_count(id) AS version_count FROM product"
        + " WHERE name = ? AND deletion_id IS NULL FOR UPDATE")
        .param(name).query(ProductRow.class).optional();
  }

  void deleteProduct(long productId, Long deletion) {
    jdbc.sql("UPDATE product SET deletion_id = ? WHERE id = ?").params(deletion, productId).update();
  }

  /** A branch of a product (not deleted) with how many builds it has. */
  record BranchRow(long id, long productId, String product, String name, int runs) {}

  static final String BRANCH = """
      SELECT b.id, b.product_id, p.name AS product, b.name,
             (SELECT count(*) FROM branch_run r WHERE r.branch_id = b.id)::int AS runs
      FROM branch b JOIN product p ON p.id = b.product_id
      WHERE p.name = ? AND p.deletion_id IS NULL AND b.name = ? AND b.deletion_id IS NULL""";

  Optional<BranchRow> branch(String product, String name) {
    return jdbc.sql(BRANCH).params(product, name).query(BranchRow.class).optional();
  }

  Optional<BranchRow> lockBranch(String product, String name) {
    return jdbc.sql(BRANCH + " FOR UPDATE OF b").params(product, name).query(BranchRow.class).optional();
  }

  void deleteBranch(long branchId, Long deletion) {
    jdbc.sql("UPDATE branch SET deletion_id = ? WHERE id = ?").params(deletion, branchId).update();
    jdbc.sql("UPDATE deletion SET branch_id = ? WHERE id = ?").params(branchId, deletion).update();
  }

  static final String LIVE_NAMESAKE = """
      SELECT EXISTS (SELECT 1 FROM branch b JOIN branch o ON o.product_id = b.product_id AND o.name = b.name
                     WHERE b.id = ? AND o.id <> b.id AND o.deletion_id IS NULL)""";

  /**
   * A restored branch counts as built at its restore: the prune ({@code perftrack.branches.prune-after}) would
   * otherwise take an old branch back at once, for good, right after an admin restored it.
   */
  void restartPruneClock(long branchId) {
    jdbc.sql("UPDATE branch SET last_run_at = GREATEST(last_run_at, now()) WHERE id = ?").param(branchId).update();
  }

  /** Whether a branch of the same name was started (by a new build) after this one was deleted. */
  boolean branchNameTaken(long branchId) {
    return jdbc.sql(LIVE_NAMESAKE).param(branchId).query(Boolean.class).single();
  }

  /** A lab agent as curation sees it (its product's id when the product is stored), locked for the change. */
  record AgentRow(long id, String product, String machine, Long productId) {}

  Optional<AgentRow> lockLabAgent(long id) {
    return jdbc.sql("""
        SELECT a.id, a.product, a.machine, (SELECT p.id FROM product p WHERE p.name = a.product) AS product_id
        FROM lab_agent a WHERE a.id = ? AND a.deletion_id IS NULL FOR UPDATE OF a""").param(id)
        .query(AgentRow.class).optional();
  }

  void deleteLabAgent(long id, Long deletion) {
    jdbc.sql("UPDATE lab_agent SET deletion_id = ? WHERE id = ?").params(deletion, id).update();
  }

  /** A note on the charts (not deleted), locked for the change: its product (if it names one) and text. */
  record AnnotationRow(long id, Long productId, String text) {}

  Optional<AnnotationRow> lockAnnotation(long id) {
    return jdbc.sql("SELECT id, product_id, text FROM annotation WHERE id = ? AND deletion_id IS NULL FOR UPDATE")
        .param(id).query(AnnotationRow.class).optional();
  }

  void deleteAnnotation(long id, Long deletion) {
    jdbc.sql("UPDATE annotation SET deletion_id = ? WHERE id = ?").params(deletion, id).update();
    if (deletion != null) {
      jdbc.sql("UPDATE deletion SET annotation_id = ? WHERE id = ?").params(id, deletion).update();
    }
  }

  /** The deletion (not purged yet) of a deleted note. */
  Optional<Long> deletionOfAnnotation(long id) {
    return jdbc.sql("SELECT deletion_id FROM annotation WHERE id = ? AND deletion_id IS NOT NULL").param(id)
        .query(Long.class).optional();
  }

  /** The job a deleted agent was running goes back to the queue. */
  void releaseJobsOf(long agentId) {
    jdbc.sql("""
        UPDATE lab_job SET status = 'queued', lease = NULL, lease_until = NULL, agent_id = NULL, progress = NULL,
               error = 'the agent was deleted during the job'
        WHERE agent_id = ? AND status = 'running'""").param(agentId).update();
  }

  /** The live agent registered since for the product and machine of deleted agent {@code id}, if any. */
  Optional<Long> liveLabAgentLike(long id) {
    return jdbc.sql("""
        SELECT l.id FROM lab_agent d JOIN lab_agent l ON l.product = d.product AND l.machine = d.machine
        WHERE d.id = ? AND l.deletion_id IS NULL""").param(id).query(Long.class).optional();
  }

  /** Names the deleted lab agent of a deletion. */
  void setLabAgent(long deletion, long agentId) {
    jdbc.sql("UPDATE deletion SET lab_agent_id = ? WHERE id = ?").params(agentId, deletion).update();
  }

  /**
   * What a deletion would take away, for its confirmation page: the runs that are not deleted already, their samples
   * (counting and excluded), the series that go with it, and the lab agents.
   */
  record Impact(long versions, long runs, long samples, long series, long labAgents) {}

  /** Samples of the runs that {@code runs} (a query of run ids) selects, counting or excluded. */
  private static String samplesOf(String runs) {
    return "(SELECT coalesce(sum(coalesce(x.n, cardinality(x.samples))), 0)"
        + " FROM (SELECT run_id, n, samples FROM result UNION ALL SELECT run_id, n, samples FROM result_set_aside) AS x"
        + " WHERE x.run_id IN (" + runs + "))";
  }

  static final String PRODUCT_IMPACT = """
      SELECT (SELECT count(*) FROM version WHERE product_id = p.id AND deletion_id IS NULL) AS versions,
             (SELECT count(*) FROM run WHERE product_id = p.id AND deletion_id IS NULL) AS runs,
             %s AS samples,
             (SELECT count(*) FROM series WHERE product_id = p.id) AS series,
             (SELECT count(*) FROM lab_agent WHERE product = p.name AND deletion_id IS NULL) AS lab_agents
      FROM product p WHERE p.name = ? AND p.deletion_id IS NULL"""
      .formatted(samplesOf("SELECT id FROM run WHERE product_id = p.id AND deletion_id IS NULL"));

  Optional<Impact> productImpact(String product) {
    return jdbc.sql(PRODUCT_IMPACT).param(product).query(Impact.class).optional();
  }

  /** A product's branches not deleted, and their builds (they go with the product). */
  record BranchToll(long branches, long builds) {}

  BranchToll productBranches(String product) {
    return jdbc.sql("""
        SELECT count(DISTINCT b.id) AS branches, count(r.id) AS builds
        FROM branch b JOIN product p ON p.id = b.product_id LEFT JOIN branch_run r ON r.branch_id = b.id
        WHERE p.name = ? AND b.deletion_id IS NULL""").param(product).query(BranchToll.class).single();
  }

  static final String MACHINE_BRANCHES = """
      SELECT count(DISTINCT b.id) AS branches, count(r.id) AS builds
      FROM branch_run r JOIN machine m ON m.id = r.machine_id JOIN branch b ON b.id = r.branch_id
      JOIN product p ON p.id = b.product_id
      WHERE m.name = ? AND b.deletion_id IS NULL AND p.deletion_id IS NULL""";

  /** The builds measured on a machine, of branches not deleted, and how many branches they are of (they go with it). */
  BranchToll machineBranches(String machine) {
    return jdbc.sql(MACHINE_BRANCHES).param(machine).query(BranchToll.class).single();
  }

  static final String MACHINE_IMPACT = """
      SELECT (SELECT count(DISTINCT version_id) FROM run WHERE machine_id = m.id AND deletion_id IS NULL) AS versions,
             (SELECT count(*) FROM run WHERE machine_id = m.id AND deletion_id IS NULL) AS runs,
             %s AS samples,
             (SELECT count(*) FROM series WHERE machine_id = m.id) AS series,
             (SELECT count(*) FROM lab_agent WHERE machine = m.name AND deletion_id IS NULL) AS lab_agents
      FROM machine m WHERE m.name = ? AND m.deletion_id IS NULL"""
      .formatted(samplesOf("SELECT id FROM run WHERE machine_id = m.id AND deletion_id IS NULL"));

  Optional<Impact> machineImpact(String machine) {
    return jdbc.sql(MACHINE_IMPACT).param(machine).query(Impact.class).optional();
  }

  static final String VERSION_IMPACT = """
      SELECT 1 AS versions,
             (SELECT count(*) FROM run WHERE version_id = v.id AND deletion_id IS NULL) AS runs,
             %s AS samples,
             (SELECT count(DISTINCT series_id) FROM result WHERE version_id = v.id) AS series,
             0 AS lab_agents
      FROM version v JOIN product p ON p.id = v.product_id
      WHERE p.name = ? AND v.name = ? AND v.deletion_id IS NULL AND p.deletion_id IS NULL"""
      .formatted(samplesOf("SELECT id FROM run WHERE version_id = v.id AND deletion_id IS NULL"));

  Optional<Impact> versionImpact(String product, String version) {
    return jdbc.sql(VERSION_IMPACT).params(product, version).query(Impact.class).optional();
  }

  static final String RUN_IMPACT = """
      SELECT 0 AS versions, 1 AS runs, %s AS samples,
             (SELECT count(*) FROM (SELECT series_id FROM result WHERE run_id = r.id
                                    UNION SELECT series_id FROM result_set_aside WHERE run_id = r.id) AS x) AS series,
             0 AS lab_agents
      FROM run r WHERE r.id = ? AND r.deletion_id IS NULL""".formatted(samplesOf("SELECT r.id"));

  Optional<Impact> runImpact(UUID run) {
    return jdbc.sql(RUN_IMPACT).param(run).query(Impact.class).optional();
  }

  /** A live lab agent, unlocked (for its confirmation page). */
  Optional<AgentRow> labAgent(long id) {
    return jdbc.sql("""
        SELECT a.id, a.product, a.machine, (SELECT p.id FROM product p WHERE p.name = a.product) AS product_id
        FROM lab_agent a WHERE a.id = ? AND a.deletion_id IS NULL""").param(id).query(AgentRow.class).optional();
  }

  static final String DELETIONS = """
      SELECT id, kind, product_id, machine_id, version_id, run_id, branch_id, lab_agent_id, annotation_id, description,
             runs, deleted_by, deleted_at,
             deleted_at + make_interval(secs => ?) AS purge_at
      FROM deletion ORDER BY deleted_at DESC, id DESC LIMIT ?""";

  List<Deletion> deletions(long keepSeconds, int limit) {
    return jdbc.sql(DELETIONS).params(keepSeconds, limit).query(Deletion.class).list();
  }

  Optional<Deletion> lockDeletion(long id, long keepSeconds) {
    return jdbc.sql(DELETIONS.replace("ORDER BY deleted_at DESC, id DESC LIMIT ?", "WHERE id = ? FOR UPDATE"))
        .params(keepSeconds, id).query(Deletion.class).optional();
  }

  static final String EXPIRED = """
      SELECT id FROM deletion WHERE deleted_at < now() - make_interval(secs => ?) ORDER BY id LIMIT 100""";

  List<Long> expired(long keepSeconds) {
    return jdbc.sql(EXPIRED).param(keepSeconds).query(Long.class).list();
  }

  /** The runs of a deletion that count once restored (not excluded). */
  List<UUID> countingRunsOf(long deletion) {
    return jdbc.sql("SELECT id FROM run WHERE deletion_id = ? AND excluded_at IS NULL").param(deletion)
        .query(UUID.class).list();
  }

  void undelete(long deletion) {
    jdbc.sql("UPDATE run SET deletion_id = NULL WHERE deletion_id = ?").param(deletion).update();
  }

  List<UUID> runsOf(long deletion) {
    return jdbc.sql("SELECT id FROM run WHERE deletion_id = ? ORDER BY id").param(deletion).query(UUID.class).list();
  }

  void forgetDeletion(long id) {
    jdbc.sql("DELETE FROM deletion WHERE id = ?").param(id).update();
  }
}
