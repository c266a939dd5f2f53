package org.perftrack.server.ingest;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.server.detection.PointReads;
import org.perftrack.wire.RunUpload;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL that bulk import adds to {@link RunStore}'s: whole batches of runs in one statement each. */
@Repository
class ImportStore {

  private final JdbcClient jdbc;
  private final PointReads points;

  ImportStore(JdbcClient jdbc, PointReads points) {
    this.jdbc = jdbc;
    this.points = points;
  }

  static final String HASHES = "SELECT id, content_hash, machine_id, version_id FROM run WHERE id = ANY(?::uuid[])";

  /** A run stored already: its content hash, and where it was measured (a pair that may still be due for judging). */
  record Stored(String hash, List<Long> place) {}

  /** Each of these runs that is stored already. */
  Map<UUID, Stored> storedHashes(List<UUID> ids) {
    Map<UUID, Stored> hashes = new HashMap<>();
    jdbc.sql(HASHES).param(ids.toArray(UUID[]::new)).query((rs, i) -> hashes.put(rs.getObject(1, UUID.class),
        new Stored(rs.getString(2), List.of(rs.getLong(3), rs.getLong(4))))).list();
    return hashes;
  }

  /** One row of {@link #INSERT_RUNS}. */
  record RunRow(UUID id, long productId, long versionId, long machineId, RunUpload run,
      java.util.function.Supplier<String> hash) {}

  static final String INSERT_RUNS = """
      INSERT INTO run (id, product_id, version_id, machine_id, suite, batch, started_at, finished_at,
                       machine_snapshot, attributes, failures, content_hash)
      SELECT id, product_id, version_id, machine_id, suite, batch, started_at, finished_at,
             machine_snapshot::jsonb, attributes::jsonb, failures::jsonb, content_hash
      FROM unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::uuid[], ?::timestamptz[],
                  ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::text[])
           AS r(id, product_id, version_id, machine_id, suite, batch, started_at, finished_at,
                machine_snapshot, attributes, failures, content_hash)
      ON CONFLICT (id) DO NOTHING
      RETURNING id""";

  /** Inserts the runs in one statement; returns the ids it stored (not those another request stored first). */
  Set<UUID> insertRuns(List<RunRow> rows) {
    int n = rows.size();
    UUID[] ids = new UUID[n];
    Long[] products = new Long[n];
    Long[] versions = new Long[n];
    Long[] machines = new Long[n];
    String[] suites = new String[n];
    UUID[] batches = new UUID[n];
    Timestamp[] started = new Timestamp[n];
    Timestamp[] finished = new Timestamp[n];
    String[] snapshots = new String[n];
    String[] attributes = new String[n];
    String[] failures = new String[n];
    String[] hashes = new String[n];
    for (int i = 0; i < n; i++) {
      RunRow row = rows.get(i);
      RunUpload run = row.run();
      ids[i] = row.id();
      products[i] = row.productId();
      versions[i] = row.versionId();
      machines[i] = row.machineId();
      suites[i] = run.suite() == null ? "default" : run.suite();
      batches[i] = run.batch() == null ? null : UUID.fromString(run.batch());
      started[i] = timestamp(run.startedAt());
      finished[i] = timestamp(run.finishedAt());
      snapshots[i] = Json.MAPPER.writeValueAsString(run.machine());
      attributes[i] = Json.MAPPER.writeValueAsString(run.attributes() == null ? Map.of() : run.attributes());
      failures[i] = Json.MAPPER.writeValueAsString(run.failures() == null ? List.of() : run.failures());
      hashes[i] = row.hash().get(); // made here, on the store thread, for a new run
    }
    return new HashSet<>(jdbc.sql(INSERT_RUNS).params(ids, products, versions, machines, suites, batches, started,
        finished, snapshots, attributes, failures, hashes).query(UUID.class).list());
  }

  /** Takes out runs this transaction inserted (before anything refers to them). */
  void deleteRuns(List<UUID> ids) {
    jdbc.sql("DELETE FROM run WHERE id = ANY(?::uuid[])").param(ids.toArray(UUID[]::new)).update();
  }

  private static Timestamp timestamp(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }

  /** The newest version of each of these series, keyed by machine, benchmark and metric. */
  Map<String, String> newestVersions(Set<Long> seriesIds) {
    Map<String, String> newest = new HashMap<>();
    points.newestVersions(seriesIds)
        .forEach(n -> newest.put(seriesKey(n.machine(), n.benchmark(), n.metric()), n.version()));
    return newest;
  }

  static String seriesKey(String machine, String benchmark, String metric) {
    return machine + '\u0000' + benchmark + '\u0000' + metric;
  }
}
