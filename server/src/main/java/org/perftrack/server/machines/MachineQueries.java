package org.perftrack.server.machines;

import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.formats.Json;
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
      FROM machine m WHERE m.name = ?""";

  Optional<Machine> find(String name) {
    return jdbc.sql(MACHINE).param(name).query((ResultSet rs, int row) -> new Machine(rs.getLong("id"),
        rs.getString("name"), rs.getString("os"), rs.getString("cpu"), (Integer) rs.getObject("cores"),
        rs.getObject("memory_mb") == null ? null : rs.getLong("memory_mb"),
        Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP),
        rs.getTimestamp("first_seen").toInstant(), rs.getTimestamp("last_seen").toInstant())).optional();
  }

  static final String MEASURED = """
      SELECT p.name AS product, v.name AS version, count(*) AS runs, max(r.received_at) AS last_run,
             (array_agg(r.id::text ORDER BY r.received_at DESC))[1] AS latest_run
      FROM run r JOIN version v ON v.id = r.version_id JOIN product p ON p.id = r.product_id
      WHERE r.machine_id = ?
      GROUP BY p.name, v.name, v.sort_key
      ORDER BY p.name, v.sort_key DESC""";

  /** Newest version first, per product. */
  List<Measured> measured(long machineId) {
    return jdbc.sql(MEASURED).param(machineId).query(Measured.class).list();
  }
}
