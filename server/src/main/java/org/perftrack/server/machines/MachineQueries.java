package org.perftrack.server.machines;

import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.db.Json;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;

/** A machine as it describes itself, and what was measured on it. */
@Service
class MachineQueries {

  record Machine(long id, String name, String os, String cpu, Integer cores, Long memoryMb,
      Map<String, String> attributes, Instant firstSeen, Instant lastSeen) {}

  /** One version of one product measured on the machine: how often, and its newest run. */
  record Measured(String product, String version, long runs, Instant lastRun, String latestRun) {}

  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private final JdbcClient jdbc;

  MachineQueries(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** Last seen: its latest run, too (ingest touches the machine row only when its description changed). */
  static final String MACHINE = """
      SELECT m.id, m.name, m.os, m.cpu, m.cores, m.memory_mb, m.attributes::text AS attributes, m.first_seen,
             greatest(m.last_seen, (SELECT max(r.received_at) FROM run r WHERE r.machine_id = m.id)) AS last_seen
      FROM machine m WHERE m.name = ? AND m.deletion_id IS NULL""";

  Optional<Machine> find(String name) {
    return jdbc.sql(MACHINE).param(name).query((ResultSet rs, int row) -> new Machine(rs.getLong("id"),
        rs.getString("name"), rs.getString("os"), rs.getString("cpu"), (Integer) rs.getObject("cores"),
        rs.getObject("memory_mb") == null ? null : rs.getLong("memory_mb"),
        Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP),
        rs.getTimestamp("first_seen").toInstant(), rs.getTimestamp("last_seen").toInstant())).optional();
  }

  /**
   * Per product the machine measured (its series say which, a table that grows with machines and metrics, not
   * with history), the newest versions it measured below a sort key: the product's versions are walked newest
   * first through (product, sort_key) and each probes (version, machine) of {@code run}, so a page costs its
   * size, not the machine's whole history.
   */
  static final String MEASURED = """
      SELECT p.name AS product, v.name AS version, x.runs, x.last_run, x.latest_run
      FROM (SELECT DISTINCT s.product_id FROM series s WHERE s.machine_id = ?) AS mp
      JOIN product p ON p.id = mp.product_id
      CROSS JOIN LATERAL (
        SELECT v.id, v.name, v.sort_key FROM version v
        WHERE v.product_id = mp.product_id AND v.sort_key < ? AND v.deletion_id IS NULL
          AND EXISTS (SELECT 1 FROM run r WHERE r.version_id = v.id AND r.machine_id = ? AND r.deletion_id IS NULL)
        ORDER BY v.sort_key DESC LIMIT ?) AS v
      CROSS JOIN LATERAL (
        SELECT count(*) AS runs, max(r.received_at) AS last_run,
               (array_agg(r.id::text ORDER BY r.received_at DESC))[1] AS latest_run
        FROM run r WHERE r.version_id = v.id AND r.machine_id = ? AND r.deletion_id IS NULL) AS x
      WHERE p.name = coalesce(?, p.name) AND p.deletion_id IS NULL
      ORDER BY p.name, v.sort_key DESC""";

  /** Deleted products (not purged yet) the machine measured, by name: a machine without runs to show says why. */
  static final String DELETED_PRODUCTS = """
      SELECT p.name FROM product p
      WHERE p.deletion_id IS NOT NULL AND EXISTS (SELECT 1 FROM series s WHERE s.product_id = p.id AND s.machine_id = ?)
      ORDER BY p.name LIMIT 20""";

  /** Whether some of the machine's runs were deleted, one by one or with their version. */
  static final String DELETED_RUNS = """
      SELECT EXISTS (SELECT 1 FROM run r WHERE r.machine_id = ? AND r.deletion_id IS NOT NULL)""";

  /** Why a machine shows no runs although it has some: the products they belong to were deleted, or the runs. */
  record Hidden(List<String> deletedProducts, boolean deletedRuns) {
    public boolean any() {
      return !deletedProducts.isEmpty() || deletedRuns;
    }
  }

  Hidden hidden(long machineId) {
    return new Hidden(jdbc.sql(DELETED_PRODUCTS).param(machineId).query(String.class).list(),
        jdbc.sql(DELETED_RUNS).param(machineId).query(Boolean.class).single());
  }

  static final String SORT_KEY = """
      SELECT v.sort_key FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?""";

  /**
   * Newest version first, per product, at most {@code limit} + 1 per product (one more than shown says that
   * there are older ones); with {@code product}, only that product's versions older than {@code olderThan}.
   */
  List<Measured> measured(long machineId, String product, String olderThan, int limit) {
    String below = "\uffff";
    if (product != null && olderThan != null) {
      below = jdbc.sql(SORT_KEY).params(product, olderThan).query(String.class).optional().orElseThrow(
          () -> new InvalidInput("olderThan", "no version " + olderThan + " of " + product));
    }
    return jdbc.sql(MEASURED).params(machineId, below, machineId, limit + 1, machineId, product)
        .query(Measured.class).list();
  }
}
